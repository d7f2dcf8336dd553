/**
 * What the panel injects into the HTML shell and the SPA reads at start-up.
 * The global names follow Pterodactyl's shell so themes and scripts written for it keep working.
 */

/** The signed-in user as the shell injects it (snake_case wire shape). */
export interface PageUser {
  uuid: string;
  username: string;
  email: string;
  language: string;
  root_admin: boolean;
  /**
   * Aerie's: what the user may do in the admin area (`<area>.<read|write>`): every permission for a root admin,
   * their role's for an admin below root, none for anyone else. The API checks each request; this only shapes
   * the menus.
   */
  admin_permissions: string[];
  use_totp: boolean;
  created_at: string;
  updated_at: string;
}

export interface SiteConfiguration {
  /** Product name shown in the navigation bar. */
  name: string;
  locale: string;
  recaptcha: { enabled: boolean; siteKey: string };
  analytics: string | null;
}

declare global {
  interface Window {
    PterodactylUser?: PageUser | null;
    SiteConfiguration?: SiteConfiguration;
  }
}

/** `<meta name="csrf-token" content="…">` in the shell carries the token for mutating requests. */
export const CSRF_META_NAME = 'csrf-token';
/** Header the SPA sends the CSRF token in (case-insensitive on the server). */
export const CSRF_HEADER = 'x-csrf-token';
/** Marker header every SPA request carries. */
export const REQUESTED_WITH_HEADER = 'x-requested-with';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';
