/** Every route of the web app, in one place for the router, links and redirects. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  dashboard: '/dashboard',
  clients: '/clients',
  addClient: '/client/add',
  clientDetails: (id: string) => `/client/${encodeURIComponent(id)}`,
  editClient: (id: string) => `/client/edit/${encodeURIComponent(id)}`,
  settings: '/settings',
} as const;

export const apiPaths = {
  health: '/api/health',
  settings: '/api/settings',
  clients: '/api/clients',
  client: (id: string) => `/api/clients/${encodeURIComponent(id)}`,
  live: '/api/live',
  signUp: '/api/auth/sign-up/email',
  signIn: '/api/auth/sign-in/email',
  signOut: '/api/auth/sign-out',
  session: '/api/auth/get-session',
} as const;
