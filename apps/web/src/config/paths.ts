/** Every address the SPA links to, in one place, so no component builds a URL by hand. */
export const paths = {
  home: '/',
  account: '/account',
  accountApi: '/account/api',
  accountSsh: '/account/ssh',
  accountActivity: '/account/activity',
  /** The admin area (root admins and admins with a role): `/admin/<section>`. */
  admin: '/admin',
  adminSection: (section: string) => `/admin/${section}`,
  server: (id: string) => `/server/${encodeURIComponent(id)}`,
  /** A page of the server area, e.g. serverPage('1a2b3c4d', 'files'). */
  serverPage: (id: string, page: string) => `/server/${encodeURIComponent(id)}/${page}`,
  /** The admin area's page of a server, by its internal id (Pterodactyl's address). */
  adminServer: (internalId: number) => `/admin/servers/view/${internalId}`,
  auth: {
    login: '/auth/login',
    checkpoint: '/auth/login/checkpoint',
    forgotPassword: '/auth/password',
    resetPassword: (token: string) => `/auth/password/reset/${encodeURIComponent(token)}`,
    /** A plain link: the panel signs the session out and redirects to the login page. */
    logout: '/auth/logout',
  },
} as const;
