import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import type { User } from '@aerie/panel/features/users/user';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
import { forbidden, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import type { AdminGrant } from '@aerie/shared/admin-roles/admin-permissions';
import {
  type AdminRoleBody,
  adminRoleAttributeNames,
  adminRoleMessages,
} from '@aerie/shared/admin-roles/admin-roles-bodies';
import type { AdminRole } from './admin-role';
import { assertMayChangeUser, assertWithinGrant } from './admin-role.policy';
import {
  deleteAdminRole,
  findAdminRole,
  insertAdminRole,
  permissionsOfUser,
  setUserAdminRole,
  updateAdminRole,
} from './admin-roles.repository';

/** Admin roles: what a user below root may do, managed by root admins (and by roles holding `roles.write`). */
export class AdminRolesService {
  constructor(private readonly deps: { db: Db; clock: () => Date }) {}

  /**
   * What `user` may do in the admin area: everything for a root admin, their role's permissions otherwise, null
   * without a role. Read on every request, so a role taken away or narrowed acts on the next one.
   */
  async grantOf(user: User): Promise<AdminGrant | null> {
    if (user.rootAdmin) return 'root';
    if (user.adminRoleId == null) return null;
    return permissionsOfUser(this.deps.db, user.id);
  }

  /**
   * `admin-role.policy.ts`' rule for changing `target`, with the target's role read (only when it matters).
   * @throws HttpError 403
   */
  async assertMayChangeUser(
    grant: AdminGrant,
    target: User | null,
    makesRoot = false,
    db: Db | Tx = this.deps.db,
  ): Promise<void> {
    const targetPermissions =
      grant !== 'root' && target?.adminRoleId != null ? ((await permissionsOfUser(db, target.id)) ?? []) : [];
    assertMayChangeUser(grant, target, targetPermissions, makesRoot);
  }

  /** @throws HttpError 422 name taken, 403 beyond the caller's own permissions */
  create(input: AdminRoleBody, grant: AdminGrant, audit: Audit<AdminRole>): Promise<AdminRole> {
    assertWithinGrant(grant, input.permissions);
    return this.write(async (tx) => {
      const id = await insertAdminRole(tx, valuesOf(input), this.deps.clock());
      const role = (await findAdminRole(tx, id)) as AdminRole;
      await audit(tx, { subjectId: id, after: role });
      return role;
    });
  }

  /** @throws HttpError 404, 422 name taken, 403 beyond the caller's own permissions or their own role */
  update(
    id: number,
    input: AdminRoleBody,
    caller: { user: User; grant: AdminGrant },
    audit: Audit<AdminRole>,
  ): Promise<AdminRole> {
    return this.write(async (tx) => {
      const before = await this.manageable(tx, id, caller);
      assertWithinGrant(caller.grant, input.permissions);
      await updateAdminRole(tx, id, valuesOf(input), this.deps.clock());
      const after = (await findAdminRole(tx, id)) as AdminRole;
      await audit(tx, { subjectId: id, before, after });
      return after;
    });
  }

  /** Deletes the role; its users keep their accounts and lose the admin area at once. */
  async delete(
    id: number,
    caller: { user: User; grant: AdminGrant },
    audit: Audit<AdminRole>,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await this.manageable(tx, id, caller);
      await deleteAdminRole(tx, id);
      await audit(tx, { subjectId: id, before });
    });
  }

  /**
   * Gives `userId` a role (or none). Below root: not to themselves, not to anyone they may not change, and not a
   * role reaching further than their own.
   * @throws HttpError 404 user or role unknown, 403
   */
  async assign(
    userId: number,
    roleId: number | null,
    caller: { user: User; grant: AdminGrant },
    audit: Audit<User>,
  ): Promise<User> {
    return this.deps.db.transaction().execute(async (tx) => {
      const before = await findUserById(tx, userId);
      if (!before) throw notFound();
      if (caller.grant !== 'root' && before.id === caller.user.id) throw forbidden(adminRoleMessages.ownRole);
      await this.assertMayChangeUser(caller.grant, before, false, tx);
      if (roleId != null) {
        const role = await findAdminRole(tx, roleId);
        if (!role) throw fieldRuleFailed('role_id', 'exists', adminRoleAttributeNames);
        assertWithinGrant(caller.grant, role.permissions);
      }
      await setUserAdminRole(tx, userId, roleId, this.deps.clock());
      const after = (await findUserById(tx, userId)) as User;
      await audit(tx, { subjectId: userId, before, after });
      return after;
    });
  }

  /** The role, when the caller may manage it: below root, not their own and not one reaching further. */
  private async manageable(
    tx: Tx,
    id: number,
    caller: { user: User; grant: AdminGrant },
  ): Promise<AdminRole> {
    const role = await findAdminRole(tx, id);
    if (!role) throw notFound();
    if (caller.grant !== 'root') {
      if (caller.user.adminRoleId === id) throw forbidden(adminRoleMessages.ownRole);
      assertWithinGrant(caller.grant, role.permissions);
    }
    return role;
  }

  private async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed('name', 'unique', adminRoleAttributeNames);
      throw error;
    }
  }
}

const valuesOf = (input: AdminRoleBody) => ({
  name: input.name,
  description: input.description ?? null,
  permissions: input.permissions,
});
