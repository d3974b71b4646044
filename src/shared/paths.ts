/** Every route of the web app, in one place for the router, links and redirects. */
export const paths = {
  home: '/',
  login: '/login',
  loginCode: '/login/code',
  register: '/register',
  dashboard: '/dashboard',
  clients: '/clients',
  addClient: '/client/add',
  clientDetails: (id: string) => `/client/${encodeURIComponent(id)}`,
  editClient: (id: string) => `/client/edit/${encodeURIComponent(id)}`,
  clientStatement: (id: string) => `/client/${encodeURIComponent(id)}/statement`,
  settings: '/settings',
  resetPassword: '/reset-password',
} as const;

/** Every page the web app has, as patterns; any other path is a "Page not found". */
const APP_PAGES = [
  /^\/$/,
  /^\/(login|login\/code|register|dashboard|clients|settings|reset-password)$/,
  /^\/client\/add$/,
  /^\/client\/edit\/[^/]+$/,
  /^\/client\/[^/]+$/,
  /^\/client\/[^/]+\/statement$/,
];

export function isAppPage(pathname: string): boolean {
  return APP_PAGES.some((page) => page.test(pathname));
}

export const apiPaths = {
  health: '/api/health',
  settings: '/api/settings',
  settingsSecurity: '/api/settings/security',
  clients: '/api/clients',
  clientsExport: '/api/clients/export',
  clientsImport: '/api/clients/import',
  client: (id: string) => `/api/clients/${encodeURIComponent(id)}`,
  restore: (id: string) => `/api/clients/${encodeURIComponent(id)}/restore`,
  bulkDelete: '/api/clients/delete',
  bulkRestore: '/api/clients/restore',
  entries: (id: string) => `/api/clients/${encodeURIComponent(id)}/entries`,
  statement: (id: string) => `/api/clients/${encodeURIComponent(id)}/statement`,
  totals: '/api/totals',
  totalsHistory: '/api/totals/history',
  operators: '/api/operators',
  operatorRole: (id: string) => `/api/operators/${encodeURIComponent(id)}/role`,
  operatorSignOut: (id: string) => `/api/operators/${encodeURIComponent(id)}/sign-out`,
  operatorsSignOutAll: '/api/operators/sign-out-all',
  operatorResetLink: (id: string) => `/api/operators/${encodeURIComponent(id)}/reset-link`,
  operatorDeactivate: (id: string) => `/api/operators/${encodeURIComponent(id)}/deactivate`,
  operatorReactivate: (id: string) => `/api/operators/${encodeURIComponent(id)}/reactivate`,
  operatorTwoFactorDisable: (id: string) =>
    `/api/operators/${encodeURIComponent(id)}/two-factor/disable`,
  passwordResetCheck: '/api/password-reset/check',
  passwordReset: '/api/password-reset',
  accountPassword: '/api/account/password',
  accountEmail: '/api/account/email',
  accountSignOutEverywhere: '/api/account/sign-out-everywhere',
  accountSessions: '/api/account/sessions',
  accountSessionsEnd: '/api/account/sessions/end',
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
  shareLinks: (id: string) => `/api/clients/${encodeURIComponent(id)}/share-links`,
  shareLink: (id: string, linkId: string) =>
    `/api/clients/${encodeURIComponent(id)}/share-links/${encodeURIComponent(linkId)}`,
  shared: (token: string) => `/api/shared/${encodeURIComponent(token)}`,
  sharedClaims: (token: string) => `/api/shared/${encodeURIComponent(token)}/claims`,
  claims: (id: string) => `/api/clients/${encodeURIComponent(id)}/claims`,
  claimConfirm: (id: string, claimId: string) =>
    `/api/clients/${encodeURIComponent(id)}/claims/${encodeURIComponent(claimId)}/confirm`,
  claimDismiss: (id: string, claimId: string) =>
    `/api/clients/${encodeURIComponent(id)}/claims/${encodeURIComponent(claimId)}/dismiss`,
  reminders: (id: string) => `/api/clients/${encodeURIComponent(id)}/reminders`,
  reminderPreview: (id: string, channel: string) =>
    `/api/clients/${encodeURIComponent(id)}/reminders/preview?channel=${encodeURIComponent(channel)}`,
} as const;
