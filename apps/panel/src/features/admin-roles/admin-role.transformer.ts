import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { AdminRole } from './admin-role';

/** `admin_role` of /api/application/roles. */
export const adminRoleTransformer: Transformer<AdminRole> = {
  object: 'admin_role',
  attributes: (role) => ({
    id: role.id,
    name: role.name,
    description: role.description,
    permissions: role.permissions,
    created_at: toWireDate(role.createdAt),
    updated_at: toWireDate(role.updatedAt),
  }),
};

/** How a role change of a user shows in the audit log: who, and which role. */
export const userRoleAuditShape = {
  object: 'user',
  attributes: (user: { id: number; username: string; adminRoleId: number | null }) => ({
    id: user.id,
    username: user.username,
    admin_role_id: user.adminRoleId,
  }),
} as const;
