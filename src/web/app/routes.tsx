import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { Loading } from '../components/loading.tsx';
import { clientListQuery } from '../features/clients/clients-api.ts';
import { listParams, viewFromParams } from '../features/clients/list-view.ts';
import { sessionQuery } from '../lib/session.ts';
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

/**
 * The list pages start loading their clients at once, beside the page's code, instead of
 * after it (the loader does not wait for the list; the page shows it when it is there).
 */
function prefetchList(queryClient: QueryClient | undefined) {
  return async ({ request }: LoaderFunctionArgs) => {
    if (!queryClient) return null;
    const user = await queryClient.ensureQueryData(sessionQuery).catch(() => null);
    // Refused until the operator turns on the two-factor sign-in the administrator requires.
    if (user && !user.twoFactorSetupRequired) {
      const view = viewFromParams(new URL(request.url).searchParams);
      void queryClient.prefetchQuery(clientListQuery(listParams(view)));
    }
    return null;
  };
}

/** The signed-in pages; tests may add their own to the same shell. */
export function signedInPages(queryClient?: QueryClient): RouteObject[] {
  const loader = prefetchList(queryClient);
  return [
    { index: true, lazy: page.dashboard, loader },
    { path: 'dashboard', lazy: page.dashboard, loader },
    { path: 'clients', lazy: page.clients, loader },
    { path: 'client/add', lazy: page.addClient },
    { path: 'client/edit/:id', lazy: page.editClient },
    { path: 'client/:id', lazy: page.clientDetails },
    { path: 'client/:id/statement', lazy: page.statement },
    { path: 'settings', lazy: page.settings },
  ];
}

/**
 * The whole app: the layout (navbar, messages, live sync) around every page. A page that
 * throws is replaced by "Something went wrong" inside the layout; the outer boundary
 * covers a failure of the layout itself.
 */
export function appRoutes(pages: RouteObject[]): RouteObject[] {
  return [
    {
      element: <AppLayout />,
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
            { element: <RequireSignedIn />, children: pages },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}

export function routesFor(queryClient: QueryClient): RouteObject[] {
  return appRoutes(signedInPages(queryClient));
}
