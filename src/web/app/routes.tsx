import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { Loading } from '../components/loading.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireRegistrationsOpen, RequireSignedIn, RequireSignedOut } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

/*
 * Each page is its own chunk, loaded when its route is first visited: the sign-in page
 * does not download the client forms, the phone-number metadata or the settings page.
 * `import().then()` rather than `(await import()).Page`: the bundler writes it shorter, and
 * this table is in the app shell, which is at its size budget (decision 0013).
 */
const page = {
  login: () => import('../features/auth/login-page.tsx').then((m) => ({ Component: m.LoginPage })),
  loginCode: () =>
    import('../features/auth/login-code-page.tsx').then((m) => ({ Component: m.LoginCodePage })),
  register: () =>
    import('../features/auth/register-page.tsx').then((m) => ({ Component: m.RegisterPage })),
  dashboard: () =>
    import('../features/clients/dashboard-page.tsx').then((m) => ({ Component: m.DashboardPage })),
  clients: () =>
    import('../features/clients/clients-page.tsx').then((m) => ({ Component: m.ClientsPage })),
  addClient: () =>
    import('../features/clients/add-client-page.tsx').then((m) => ({ Component: m.AddClientPage })),
  editClient: () =>
    import('../features/clients/edit-client-page.tsx').then((m) => ({
      Component: m.EditClientPage,
    })),
  clientDetails: () =>
    import('../features/clients/client-details-page.tsx').then((m) => ({
      Component: m.ClientDetailsPage,
    })),
  statement: () =>
    import('../features/clients/statement-page.tsx').then((m) => ({ Component: m.StatementPage })),
  settings: () =>
    import('../features/settings/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })),
  resetPassword: () =>
    import('../features/auth/reset-password-page.tsx').then((m) => ({
      Component: m.ResetPasswordPage,
    })),
};

/** The signed-in part of the app (signed-in.tsx) once loaded, with the app's query cache. */
export interface SignedInPart {
  client: QueryClient;
  module: typeof import('./signed-in.tsx');
}

/** Loads the signed-in part the first time a signed-in page or the live channel needs it. */
export interface SignedInLoader {
  /** Undefined until it is loaded. */
  current: SignedInPart | undefined;
  load(): Promise<SignedInPart>;
}

function signedInLoader(): SignedInLoader {
  let loading: Promise<SignedInPart> | undefined;
  const loader: SignedInLoader = {
    current: undefined,
    load: () =>
      (loading ??= import('./signed-in.tsx').then((module) => {
        loader.current = { client: module.createQueryClient(), module };
        return loader.current;
      })),
  };
  return loader;
}

/** The signed-in pages; `extraPages` (a test's page that throws, say) join them. */
function signedInPages(signedIn: SignedInLoader, extraPages: RouteObject[]): RouteObject[] {
  const loader = (args: LoaderFunctionArgs) =>
    signedIn.load().then(({ client, module }) => module.prefetchList(client, args));
  return [
    { index: true, lazy: page.dashboard, loader },
    { path: 'dashboard', lazy: page.dashboard, loader },
    { path: 'clients', lazy: page.clients, loader },
    { path: 'client/add', lazy: page.addClient },
    { path: 'client/edit/:id', lazy: page.editClient },
    { path: 'client/:id', lazy: page.clientDetails },
    { path: 'client/:id/statement', lazy: page.statement },
    { path: 'settings', lazy: page.settings },
    ...extraPages,
  ];
}

/**
 * The whole app: the layout (navbar, messages, live channel) around every page. A page that
 * throws is replaced by "Something went wrong" inside the layout; the outer boundary covers a
 * failure of the layout itself. The pages before sign-in need nothing of the signed-in part,
 * whose query cache is one per app (per router).
 */
export function appRoutes(extraPages: RouteObject[] = []): RouteObject[] {
  const signedIn = signedInLoader();
  return [
    {
      element: <AppLayout signedIn={signedIn} />,
      errorElement: <RouteErrorPage />,
      // Shown while the first page's code loads.
      hydrateFallbackElement: <Loading />,
      children: [
        {
          errorElement: <RouteErrorPage />,
          children: [
            {
              element: <RequireSignedOut />,
              children: [
                { path: 'login', lazy: page.login },
                { path: 'login/code', lazy: page.loginCode },
              ],
            },
            {
              element: <RequireRegistrationsOpen />,
              children: [{ path: 'register', lazy: page.register }],
            },
            // Signed in or not: the link is the credential.
            { path: 'reset-password', lazy: page.resetPassword },
            {
              element: <RequireSignedIn />,
              children: [
                {
                  lazy: () =>
                    signedIn.load().then(({ client, module }) => ({
                      element: <module.QueryShell client={client} />,
                    })),
                  children: signedInPages(signedIn, extraPages),
                },
              ],
            },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}
