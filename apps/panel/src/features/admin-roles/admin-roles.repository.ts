import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readDate } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { AdminRolesTable } from '@aerie/panel/db/schema-audit';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { type AdminPermission, isAdminPermission } from '@aerie/shared/admin-roles/admin-permissions';
import type { Selectable } from 'kysely';
import type { AdminRole } from './admin-role';

export const adminRoleListSpec = {
  filters: { name: { column: 'admin_roles.name' } },
  sorts: { id: 'admin_roles.id', name: 'admin_roles.name' },
} as const;

/** Permissions as stored; one the catalogue no longer has (a later version renamed it) grants nothing. */
function readPermissions(text: string): AdminPermission[] {
  const list: unknown = JSON.parse(text);
  return Array.isArray(list) ? list.filter(isAdminPermission) : [];
}

function toAdminRole(row: Selectable<AdminRolesTable>): AdminRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: readPermissions(row.permissions),
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}

export async function listAdminRoles(db: Db, list: ListQuery) {
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('admin_roles').selectAll(),
    list,
    'admin_roles.id',
  );
  return { rows: rows.map(toAdminRole), total };
}

export async function findAdminRole(db: Db | Tx, id: number): Promise<AdminRole | null> {
  const row = await db.selectFrom('admin_roles').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAdminRole(row) : null;
}

/** The permissions of a user's role, read fresh on every request so that taking a role away acts at once. */
export async function permissionsOfUser(db: Db | Tx, userId: number): Promise<AdminPermission[] | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('admin_roles', 'admin_roles.id', 'users.admin_role_id')
    .select('admin_roles.permissions')
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row ? readPermissions(row.permissions) : null;
}

export interface AdminRoleValues {
  name: string;
  description: string | null;
  permissions: readonly AdminPermission[];
}

export function insertAdminRole(db: Tx, values: AdminRoleValues, now: Date): Promise<number> {
  return insertReturningId(
    db,
    db.insertInto('admin_roles').values({
      name: values.name,
      description: values.description,
      permissions: JSON.stringify(values.permissions),
      created_at: now,
      updated_at: now,
    }),
  );
}

export async function updateAdminRole(db: Tx, id: number, values: AdminRoleValues, now: Date): Promise<void> {
  await db
    .updateTable('admin_roles')
    .set({
      name: values.name,
      description: values.description,
      permissions: JSON.stringify(values.permissions),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteAdminRole(db: Tx, id: number): Promise<void> {
  await db.deleteFrom('admin_roles').where('id', '=', id).execute();
}

export async function setUserAdminRole(
  db: Tx,
  userId: number,
  roleId: number | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ admin_role_id: roleId, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
