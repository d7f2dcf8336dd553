/** Every address the SPA links to, in one place, so no component builds a URL by hand. */
export const paths = {
  home: '/',
  account: '/account',
  accountApi: '/account/api',
  /** Served by the panel, outside the SPA: always a full page load. */
  admin: '/admin',
  server: (id: string) => `/server/${encodeURIComponent(id)}`,
  auth: {
    login: '/auth/login',
    checkpoint: '/auth/login/checkpoint',
    forgotPassword: '/auth/password',
    resetPassword: (token: string) => `/auth/password/reset/${encodeURIComponent(token)}`,
    /** A plain link: the panel signs the session out and redirects to the login page. */
    logout: '/auth/logout',
  },
} as const;
