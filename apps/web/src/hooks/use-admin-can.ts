import type { AdminGrant, AdminPermission } from '@aerie/shared/admin-roles/admin-permissions';
import { adminCan, adminGrantOf } from '@/lib/admin-access';
import { useUserStore } from '@/stores/user-store';

/**
 * Whether the signed-in user may do `permission` in the admin area (`useAdminCan('servers.write')`): pages hide
 * the controls of what the user may not do. The API refuses it anyway.
 */
export function useAdminCan(permission: AdminPermission): boolean {
  return useUserStore((state) => adminCan(state.user, permission));
}

/** The signed-in user's admin grant: 'root', their role's permissions, or null. */
export function useAdminGrant(): AdminGrant | null {
  return useUserStore((state) => adminGrantOf(state.user));
}
