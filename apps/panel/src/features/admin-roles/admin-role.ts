import type { AdminPermission } from '@aerie/shared/admin-roles/admin-permissions';

/** An admin role: a name and what its users may do in the admin area. */
export interface AdminRole {
  id: number;
  name: string;
  description: string | null;
  permissions: AdminPermission[];
  createdAt: Date;
  updatedAt: Date;
}
