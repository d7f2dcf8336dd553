import { type AdminPermission, isAdminPermission } from '@aerie/shared/admin-roles/admin-permissions';
import { CSRF_META_NAME, type PageUser, type SiteConfiguration } from '@aerie/shared/boot/page-globals';

/** The signed-in user as the SPA models it (spec §3 "Current user"). */
export interface User {
  uuid: string;
  username: string;
  email: string;
  language: string;
  rootAdmin: boolean;
  /**
   * What the user may do in the admin area: every permission for a root admin, their role's below root, none
   * without a role. Only shapes the menus; the API checks each request.
   */
  adminPermissions: AdminPermission[];
  useTotp: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Product settings from the shell (spec §3 "Settings"). */
export interface Settings {
  name: string;
  locale: string;
  recaptcha: { enabled: boolean; siteKey: string };
  analytics: string | null;
}

const defaultSettings: Settings = {
  name: 'Aerie',
  locale: 'en',
  recaptcha: { enabled: false, siteKey: '' },
  analytics: null,
};

/** Maps the snake_case user the panel injects into the camelCase model; the only place that knows both. */
export function toUser(
  user: Omit<PageUser, 'admin_permissions'> & { admin_permissions?: readonly unknown[] | null },
): User {
  return {
    uuid: user.uuid,
    username: user.username,
    email: user.email,
    language: user.language,
    rootAdmin: user.root_admin,
    // A shell of an older panel carries no list; anything unknown is left out rather than trusted.
    adminPermissions: Array.isArray(user.admin_permissions)
      ? user.admin_permissions.filter(isAdminPermission)
      : [],
    useTotp: user.use_totp,
    createdAt: new Date(user.created_at),
    updatedAt: new Date(user.updated_at),
  };
}

export function readPageUser(): User | null {
  const user = window.PterodactylUser;
  return user ? toUser(user) : null;
}

/** Settings never change while the page lives, so reading the global each time is enough. */
export function readSettings(): Settings {
  const config: Partial<SiteConfiguration> = window.SiteConfiguration ?? {};
  return {
    name: config.name || defaultSettings.name,
    locale: config.locale || defaultSettings.locale,
    recaptcha: {
      enabled: config.recaptcha?.enabled === true,
      siteKey: config.recaptcha?.siteKey ?? '',
    },
    analytics: config.analytics ?? null,
  };
}

export function readCsrfToken(): string | null {
  return document.querySelector(`meta[name="${CSRF_META_NAME}"]`)?.getAttribute('content') ?? null;
}
