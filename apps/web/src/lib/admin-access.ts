import {
  type AdminGrant,
  type AdminPermission,
  canInAdmin,
} from '@aerie/shared/admin-roles/admin-permissions';
import type { User } from '@/lib/page-globals';

/**
 * What the signed-in user may do in the admin area, as the shell told the SPA: root for a root admin, their role's
 * permissions below root, null for a user with neither. It only shapes menus and buttons: the API decides.
 */
export function adminGrantOf(user: User | null | undefined): AdminGrant | null {
  if (!user) return null;
  if (user.rootAdmin) return 'root';
  return user.adminPermissions.length > 0 ? user.adminPermissions : null;
}

/** Whether the user reaches the admin area at all: a root admin, or anyone holding an admin permission. */
export const hasAdminArea = (user: User | null | undefined): boolean => adminGrantOf(user) !== null;

/** Whether the user may do `permission` in the admin area. */
export const adminCan = (user: User | null | undefined, permission: AdminPermission): boolean =>
  canInAdmin(adminGrantOf(user), permission);
