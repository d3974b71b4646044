/** The names in a page pattern, in order: `'/client/:id/statement'` has `['id']`. */
type ParamsOf<Pattern extends string> = Pattern extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamsOf<`/${Rest}`>]
  : Pattern extends `${string}:${infer Name}`
    ? [Name]
    : [];

/** A page's address: a string when its pattern has no parameter, else a function of them. */
type Href<Pattern extends string> =
  ParamsOf<Pattern> extends [] ? string : (...values: ValuesFor<ParamsOf<Pattern>>) => string;

/** One string for each parameter name. */
type ValuesFor<Names extends string[]> = { [Index in keyof Names]: string };

interface Page<Pattern extends string> {
  /** React Router's `path`, and what the server matches a request against (`isAppPage`). */
  pattern: Pattern;
  href: Href<Pattern>;
}

function page<Pattern extends string>(pattern: Pattern): Page<Pattern> {
  const segments = pattern.split('/');
  const hasParams = segments.some((segment) => segment.startsWith(':'));
  const href = (...values: string[]) => {
    let next = 0;
    return segments
      .map((segment) =>
        segment.startsWith(':') ? encodeURIComponent(values[next++] ?? '') : segment,
      )
      .join('/');
  };
  return { pattern, href: (hasParams ? href : pattern) as Href<Pattern> };
}

/**
 * Every page of the web app, written once: the router's routes, the server's list of pages
 * (any other path is a "Page not found", with a 404) and the links all come from here.
 * A pattern is React Router's: literal segments and `:name` parameters, nothing more.
 */
export const pages = {
  home: page('/'),
  login: page('/login'),
  loginCode: page('/login/code'),
  register: page('/register'),
  dashboard: page('/dashboard'),
  clients: page('/clients'),
  addClient: page('/client/add'),
  clientDetails: page('/client/:id'),
  editClient: page('/client/edit/:id'),
  clientStatement: page('/client/:id/statement'),
  collect: page('/collect'),
  ageingPrint: page('/ageing/print'),
  settings: page('/settings'),
  resetPassword: page('/reset-password'),
  // Shared books (issue 23): joining one by its invitation link, and what its members did.
  invite: page('/invite/:token'),
  activity: page('/activity'),
} as const;

type Pages = typeof pages;

/** Each page's address, for links and redirects: `paths.login`, `paths.clientDetails(id)`. */
export const paths = Object.fromEntries(
  Object.entries(pages).map(([name, { href }]) => [name, href]),
) as { [Name in keyof Pages]: Pages[Name]['href'] };

/**
 * Whether a path (without its query) is one of `pages`, as React Router matches them: a
 * parameter is one segment that is not empty.
 */
function matches(pattern: string, pathname: string): boolean {
  const wanted = pattern.split('/');
  const given = pathname.split('/');
  return (
    wanted.length === given.length &&
    wanted.every((segment, index) =>
      segment.startsWith(':') ? given[index] !== '' : segment === given[index],
    )
  );
}

export function isAppPage(pathname: string): boolean {
  return Object.values(pages).some(({ pattern }) => matches(pattern, pathname));
}

/** A path under one client's API (`/api/clients/<id>/<rest>`), its id encoded. */
function clientPath(id: string, rest: string): string {
  return under('clients', id, rest);
}

/** `/api/<collection>/<id>/<rest>`, the id encoded. */
function under(collection: string, id: string, rest = ''): string {
  return `/api/${collection}/${encodeURIComponent(id)}${rest && `/${rest}`}`;
}

export const apiPaths = {
  health: '/api/health',
  settings: '/api/settings',
  settingsSecurity: '/api/settings/security',
  clients: '/api/clients',
  clientsExport: '/api/clients/export',
  clientsImport: '/api/clients/import',
  client: (id: string) => under('clients', id),
  restore: (id: string) => clientPath(id, 'restore'),
  bulkDelete: '/api/clients/delete',
  bulkRestore: '/api/clients/restore',
  entries: (id: string) => clientPath(id, 'entries'),
  statement: (id: string) => clientPath(id, 'statement'),
  totals: '/api/totals',
  totalsHistory: '/api/totals/history',
  operators: '/api/operators',
  operatorRole: (id: string) => under('operators', id, 'role'),
  operatorSignOut: (id: string) => under('operators', id, 'sign-out'),
  operatorsSignOutAll: '/api/operators/sign-out-all',
  operatorResetLink: (id: string) => under('operators', id, 'reset-link'),
  operatorDeactivate: (id: string) => under('operators', id, 'deactivate'),
  operatorReactivate: (id: string) => under('operators', id, 'reactivate'),
  operatorTwoFactorDisable: (id: string) => under('operators', id, 'two-factor/disable'),
  passwordResetCheck: '/api/password-reset/check',
  passwordReset: '/api/password-reset',
  accountPassword: '/api/account/password',
  accountEmail: '/api/account/email',
  accountSignOutEverywhere: '/api/account/sign-out-everywhere',
  accountSessions: '/api/account/sessions',
  accountSessionsEnd: '/api/account/sessions/end',
  accountPreferences: '/api/account/preferences',
  accountTwoFactor: '/api/account/two-factor',
  accountTwoFactorSetup: '/api/account/two-factor/setup',
  accountTwoFactorConfirm: '/api/account/two-factor/confirm',
  accountTwoFactorDisable: '/api/account/two-factor/disable',
  accountTwoFactorBackupCodes: '/api/account/two-factor/backup-codes',
  live: '/api/live',
  signUp: '/api/auth/sign-up/email',
  signIn: '/api/auth/sign-in/email',
  signInSecondFactor: '/api/auth/sign-in/second-factor',
  signOut: '/api/auth/sign-out',
  session: '/api/auth/get-session',
  // Getting paid (issue 20).
  collectionSettings: '/api/collection-settings',
  shareLinks: (id: string) => clientPath(id, 'share-links'),
  shareLink: (id: string, linkId: string) =>
    clientPath(id, `share-links/${encodeURIComponent(linkId)}`),
  shared: (token: string) => under('shared', token),
  sharedClaims: (token: string) => under('shared', token, 'claims'),
  claims: (id: string) => clientPath(id, 'claims'),
  claimConfirm: (id: string, claimId: string) =>
    clientPath(id, `claims/${encodeURIComponent(claimId)}/confirm`),
  claimDismiss: (id: string, claimId: string) =>
    clientPath(id, `claims/${encodeURIComponent(claimId)}/dismiss`),
  reminders: (id: string) => clientPath(id, 'reminders'),
  reminderPreview: (id: string, channel: string) =>
    clientPath(id, `reminders/preview?channel=${encodeURIComponent(channel)}`),
  // Due dates, ageing and promises (issue 21).
  ageing: '/api/ageing',
  ageingExport: '/api/ageing/export',
  promises: (id: string) => clientPath(id, 'promises'),
  collect: '/api/collect',
  collectSkip: (id: string) => clientPath(id, 'skip'),
  // Shared books (issue 23).
  books: '/api/books',
  currentBook: '/api/books/current',
  bookMembers: '/api/book/members',
  bookMember: (id: string) => under('book/members', id),
  bookInvites: '/api/book/invites',
  invite: (token: string) => under('invites', token),
  inviteAccept: (token: string) => under('invites', token, 'accept'),
  activity: '/api/activity',
} as const;
