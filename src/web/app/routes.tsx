import { type ComponentType, lazy, useState } from 'react';
import { type RouteObject, useLocation, useRoutes } from 'react-router';
import { pages } from '../../shared/paths.ts';
import { FlashProvider } from '../components/flash-messages.tsx';
import type { Part } from '../i18n/catalogues.ts';
import { loadCatalogues } from '../i18n/language.ts';
import { RedrawOnLanguageChange } from '../i18n/language-provider.tsx';
import { AppLayout } from './app-layout.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { RequireRegistrationsOpen, RequireSignedIn, RequireSignedOut } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { type SignedInLoader, type SignedInPart, signedInLoader } from './signed-in-loader.tsx';

/*
 * Each page is its own chunk, loaded when its route is first shown: the sign-in page does not
 * download the client forms, the phone-number metadata or the settings page. React Router's
 * declarative routes (useRoutes) rather than its data router, which alone would cost the
 * sign-in page 17 KB (decision 0013): React.lazy loads the pages, error boundaries catch what
 * they throw. `import().then()` rather than `(await import()).Page`: the bundler writes it
 * shorter, and this table is in the app shell.
 */
type PageLoader = () => Promise<ComponentType>;

/** A page's code and its part of the catalogues, fetched side by side. */
function withWords<Module>(
  part: Part,
  module: Promise<Module>,
  page: (module: Module) => ComponentType,
): Promise<ComponentType> {
  return Promise.all([module, loadCatalogues(part)]).then(([loaded]) => page(loaded));
}

const page = {
  login: () => withWords('auth', import('../features/auth/login-page.tsx'), (m) => m.LoginPage),
  loginCode: () =>
    withWords('auth', import('../features/auth/login-code-page.tsx'), (m) => m.LoginCodePage),
  register: () =>
    withWords('auth', import('../features/auth/register-page.tsx'), (m) => m.RegisterPage),
  resetPassword: () =>
    withWords(
      'auth',
      import('../features/auth/reset-password-page.tsx'),
      (m) => m.ResetPasswordPage,
    ),
  dashboard: () => import('../pages/dashboard-page.tsx').then((m) => m.DashboardPage),
  clients: () => import('../pages/clients-page.tsx').then((m) => m.ClientsPage),
  addClient: () => import('../features/clients/add-client-page.tsx').then((m) => m.AddClientPage),
  editClient: () =>
    import('../features/clients/edit-client-page.tsx').then((m) => m.EditClientPage),
  clientDetails: () => import('../pages/client-details-page.tsx').then((m) => m.ClientDetailsPage),
  statement: () => import('../pages/statement-page.tsx').then((m) => m.StatementPage),
  // One chunk for the pages made to print: the same import writes shorter in this shell.
  ageingPrint: () => import('../pages/statement-page.tsx').then((m) => m.AgeingPrintPage),
  collect: () => import('../pages/collect-page.tsx').then((m) => m.CollectPage),
  settings: () =>
    withWords('settings', import('../pages/settings-page.tsx'), (m) => m.SettingsPage),
  activity: () =>
    withWords('books', import('../features/books/activity-page.tsx'), (m) => m.ActivityPage),
} satisfies Record<string, PageLoader>;

const lazyPage = (load: PageLoader) => lazy(() => load().then((Page) => ({ default: Page })));

const LoginPage = lazyPage(page.login);
const LoginCodePage = lazyPage(page.loginCode);
const RegisterPage = lazyPage(page.register);
const ResetPasswordPage = lazyPage(page.resetPassword);

/**
 * A signed-in page: its code and the signed-in part load side by side, and the page shows in
 * the app's query cache. `beside` starts what may go with them (the list's first request).
 */
function signedInPage(
  signedIn: SignedInLoader,
  load: PageLoader,
  beside?: (part: SignedInPart) => void,
) {
  return lazy(async () => {
    const [Page, { client, module }] = await Promise.all([
      load(),
      signedIn.load().then((part) => {
        beside?.(part);
        return part;
      }),
    ]);
    return {
      default: () => (
        <module.QueryShell client={client}>
          <Page />
        </module.QueryShell>
      ),
    };
  });
}

/**
 * A list page, whose clients are asked for beside its code the first time it loads instead
 * of after it (the page shows the list when it is there).
 */
function listPage(signedIn: SignedInLoader, load: PageLoader) {
  let search = '';
  const Page = signedInPage(signedIn, load, ({ client, module }) => {
    void module.prefetchList(client, search);
  });
  return function ListPage() {
    search = useLocation().search;
    return <Page />;
  };
}

/** The signed-in pages; `extraPages` (a test's page that throws, say) join them. */
function signedInPages(signedIn: SignedInLoader, extraPages: RouteObject[]): RouteObject[] {
  const Dashboard = listPage(signedIn, page.dashboard);
  const Clients = listPage(signedIn, page.clients);
  const AddClient = signedInPage(signedIn, page.addClient);
  const EditClient = signedInPage(signedIn, page.editClient);
  const ClientDetails = signedInPage(signedIn, page.clientDetails);
  const Statement = signedInPage(signedIn, page.statement);
  const AgeingPrint = signedInPage(signedIn, page.ageingPrint);
  const Collect = signedInPage(signedIn, page.collect);
  const Settings = signedInPage(signedIn, page.settings);
  const Activity = signedInPage(signedIn, page.activity);
  return [
    { path: pages.home.pattern, element: <Dashboard /> },
    { path: pages.dashboard.pattern, element: <Dashboard /> },
    { path: pages.clients.pattern, element: <Clients /> },
    { path: pages.addClient.pattern, element: <AddClient /> },
    { path: pages.editClient.pattern, element: <EditClient /> },
    { path: pages.clientDetails.pattern, element: <ClientDetails /> },
    { path: pages.clientStatement.pattern, element: <Statement /> },
    { path: pages.ageingPrint.pattern, element: <AgeingPrint /> },
    { path: pages.collect.pattern, element: <Collect /> },
    { path: pages.settings.pattern, element: <Settings /> },
    { path: pages.activity.pattern, element: <Activity /> },
    ...extraPages,
  ];
}

/**
 * The whole app: the layout (navbar, messages, live channel) around every page. The pages
 * before sign-in need nothing of the signed-in part, whose query cache is one per app.
 */
function appRoutes(extraPages: RouteObject[]): RouteObject[] {
  const signedIn = signedInLoader();
  // Signed in or not: joining empties what was read from the book the session was in.
  const InvitePage = lazy(() =>
    withWords('books', import('../features/books/invite-page.tsx'), (m) => () => (
      <m.InvitePage onJoined={() => signedIn.current?.client.resetQueries()} />
    )).then((Page) => ({ default: Page })),
  );
  return [
    {
      element: <AppLayout signedIn={signedIn} />,
      children: [
        {
          element: <RequireSignedOut />,
          children: [
            { path: pages.login.pattern, element: <LoginPage /> },
            { path: pages.loginCode.pattern, element: <LoginCodePage /> },
          ],
        },
        {
          element: <RequireRegistrationsOpen />,
          children: [{ path: pages.register.pattern, element: <RegisterPage /> }],
        },
        // Signed in or not: the link is the credential.
        { path: pages.resetPassword.pattern, element: <ResetPasswordPage /> },
        { path: pages.invite.pattern, element: <InvitePage /> },
        { element: <RequireSignedIn />, children: signedInPages(signedIn, extraPages) },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

/**
 * The app inside a router (main.tsx's, or a test's). A failure of the layout itself is shown
 * in place of everything; a page's, inside the layout (app-layout.tsx).
 */
export function App({ extraPages = [] }: { extraPages?: RouteObject[] }) {
  const [routes] = useState(() => appRoutes(extraPages));
  const element = useRoutes(routes);
  return (
    <ErrorBoundary>
      <FlashProvider>
        <RedrawOnLanguageChange>{element}</RedrawOnLanguageChange>
      </FlashProvider>
    </ErrorBoundary>
  );
}
