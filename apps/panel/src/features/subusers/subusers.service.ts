import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import { accessDenied, type ServerAccess } from '@aerie/panel/features/servers/server-access';
import type { User } from '@aerie/panel/features/users/user';
import { findUserByEmail, normaliseLogin } from '@aerie/panel/features/users/user-lookups';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import { sanitizeSubuserPermissions } from '@aerie/shared/permissions/permissions';
import type { RequestedPermissions } from '@aerie/shared/permissions/requested-permissions';
import { subuserMessages } from '@aerie/shared/subusers/subusers-bodies';
import { createInvitedUser, unusablePasswordHash } from './invited-user';
import {
  deleteSubuser,
  findSubuserByUserUuid,
  findSubuserOfUser,
  insertSubuser,
  listSubusers,
  type SubuserRow,
  updateSubuserPermissions,
} from './subusers.repository';

/** Parallel invites of one email: the loser's transaction rolls back and runs again, finding the winner's rows. */
const INVITE_ATTEMPTS = 3;

const subuserExists = () => new HttpError(400, 'ServerSubuserExistsException', subuserMessages.exists);

/** A unique index or a deadlock stopped a write another request made at the same moment. */
function lostRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isUniqueViolation(error) || code === 'ER_LOCK_DEADLOCK' || code === '40P01' || code === '40001';
}

/** Same permissions, whatever their order (upstream compares them sorted). */
const samePermissions = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * The Users page's verbs (reference §7.2 "Subusers", §10 subuser tests). Every change is written with its
 * activity entry in one transaction; a change that takes access away (any change of permissions, a removal) then
 * has the server's daemon deny the user's live websocket tokens, signed URLs and SFTP sessions at once.
 */
export class SubusersService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      activity: ActivityLog;
      revocation: AccessRevocation;
      /** Mails a new account its set-password link (the password reset machinery). */
      accounts: { mailAccountCreated(user: Pick<User, 'email' | 'username' | 'language'>): Promise<void> };
    },
  ) {}

  list(access: ServerAccess): Promise<SubuserRow[]> {
    return listSubusers(this.deps.db, access.server.id);
  }

  /**
   * Adds the user with this email as a subuser: an account is made for an email that has none, and mailed a link
   * to choose its password. Permissions are kept to the catalogue's, once each, in the order given, with
   * `websocket.connect` added.
   * @throws HttpError 400 UserIsServerOwnerException for the owner's email, 400 ServerSubuserExistsException when
   *   the user is already a subuser; 403 for the caller's own email
   */
  async create(
    access: ServerAccess,
    input: { email: string; permissions: RequestedPermissions },
  ): Promise<SubuserRow> {
    const { db, clock } = this.deps;
    const { server } = access;
    const email = normaliseLogin(input.email);
    const permissions = sanitizeSubuserPermissions(input.permissions);
    for (let attempt = 1; ; attempt++) {
      const existing = await findUserByEmail(db, email);
      if (existing?.id === server.ownerId) {
        throw new HttpError(400, 'UserIsServerOwnerException', subuserMessages.isOwner);
      }
      if (existing && (await findSubuserOfUser(db, server.id, existing.id))) throw subuserExists();
      if (existing?.id === access.user.id) throw accessDenied();
      // Hashed before the transaction: argon2 takes a while and must not hold the write lock.
      const passwordHash = existing ? null : await unusablePasswordHash();
      try {
        const { user, created } = await db.transaction().execute(async (tx) => {
          const now = clock();
          const user = existing ?? (await createInvitedUser(tx, email, passwordHash as string, now));
          if (await findSubuserOfUser(tx, server.id, user.id)) throw subuserExists();
          await insertSubuser(tx, { serverId: server.id, userId: user.id, permissions, now });
          await this.deps.activity.record(tx, {
            event: 'server:subuser.create',
            ...serverActivity(access),
            subjects: { user },
            properties: { email, permissions },
          });
          return { user, created: !existing };
        });
        if (created) await this.deps.accounts.mailAccountCreated(user);
        return (await findSubuserByUserUuid(db, server.id, user.uuid)) as SubuserRow;
      } catch (error) {
        if (!lostRace(error) || attempt >= INVITE_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Sets the subuser's permissions (same cleaning as `create`). Nothing happens when they are the same ones in
   * another order; otherwise the daemon is told to deny the tokens the user holds, so the next one carries the
   * new list.
   * @throws HttpError 404 when the subuser was removed meanwhile
   */
  async update(
    access: ServerAccess,
    subuser: SubuserRow,
    requested: RequestedPermissions,
  ): Promise<SubuserRow> {
    const permissions = sanitizeSubuserPermissions(requested);
    if (samePermissions(permissions, subuser.permissions)) return subuser;
    const properties = {
      email: subuser.email,
      old: [...subuser.permissions].sort(),
      new: [...permissions].sort(),
      revoked: true,
    };
    const entry = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await updateSubuserPermissions(tx, subuser.id, permissions, this.deps.clock()))) throw notFound();
      return this.deps.activity.record(tx, {
        event: 'server:subuser.update',
        ...serverActivity(access),
        subjects: { user: { id: subuser.userId } },
        properties,
      });
    });
    await this.#revoke(access, subuser, entry, properties);
    return { ...subuser, permissions };
  }

  /**
   * Removes the subuser: from now on the server answers them 404, and the daemon ends their live access.
   * @throws HttpError 404 when another request removed them first
   */
  async remove(access: ServerAccess, subuser: SubuserRow): Promise<void> {
    const properties = { email: subuser.email, revoked: true };
    const entry = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await deleteSubuser(tx, subuser.id))) throw notFound();
      return this.deps.activity.record(tx, {
        event: 'server:subuser.delete',
        ...serverActivity(access),
        subjects: { user: { id: subuser.userId } },
        properties,
      });
    });
    await this.#revoke(access, subuser, entry, properties);
  }

  /**
   * After the change is saved (a token issued in between would carry the old permissions): the daemon denies
   * what the user holds. A node that cannot be told is noted on the entry (`revoked: false`), as upstream does;
   * the tokens then die on their own within 15 minutes.
   */
  async #revoke(
    access: ServerAccess,
    subuser: SubuserRow,
    entry: number,
    properties: Record<string, unknown>,
  ): Promise<void> {
    const told = await this.deps.revocation.revokeUserOnServer({
      server: access.server,
      user: { id: subuser.userId, uuid: subuser.uuid },
    });
    if (!told) await this.deps.activity.setProperties(this.deps.db, entry, { ...properties, revoked: false });
  }
}
