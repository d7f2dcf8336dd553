import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import {
  type ServerSubuser,
  subuserQuery,
  toServerSubuser,
} from '@aerie/panel/features/servers/servers.repository';

/** SQL of the Users page: a server's subusers with their accounts. */

/** A subuser of one server with what the page shows of its account (the server core's one mapping). */
export type SubuserRow = ServerSubuser;

/** A user's uuid as users have them; anything else cannot name a subuser (and is never read as a number). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const subusersOf = (db: Db | Tx, serverId: number) =>
  subuserQuery(db).where('subusers.server_id', '=', serverId);

/** The server's subusers in the order they were added. */
export async function listSubusers(db: Db, serverId: number): Promise<SubuserRow[]> {
  return (await subusersOf(db, serverId).orderBy('subusers.id').execute()).map(toServerSubuser);
}

/** The subuser of the server whose user has this uuid; undefined for anyone else, or a malformed uuid. */
export async function findSubuserByUserUuid(
  db: Db | Tx,
  serverId: number,
  userUuid: string | undefined,
): Promise<SubuserRow | undefined> {
  if (!userUuid || !UUID.test(userUuid)) return undefined;
  const row = await subusersOf(db, serverId)
    .where('users.uuid', '=', userUuid.toLowerCase())
    .executeTakeFirst();
  return row ? toServerSubuser(row) : undefined;
}

/** The subuser row of this user on this server, if any. */
export async function findSubuserOfUser(tx: Db | Tx, serverId: number, userId: number) {
  return tx
    .selectFrom('subusers')
    .select('id')
    .where('server_id', '=', serverId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** @throws the driver's unique violation when the user is already a subuser of the server */
export async function insertSubuser(
  tx: Tx,
  input: { serverId: number; userId: number; permissions: string[]; now: Date },
): Promise<void> {
  await tx
    .insertInto('subusers')
    .values({
      user_id: input.userId,
      server_id: input.serverId,
      permissions: JSON.stringify(input.permissions),
      created_at: input.now,
      updated_at: input.now,
    })
    .execute();
}

/** @returns false when the row is gone (removed by a request that came first) */
export async function updateSubuserPermissions(
  tx: Tx,
  id: number,
  permissions: string[],
  now: Date,
): Promise<boolean> {
  const result = await tx
    .updateTable('subusers')
    .set({ permissions: JSON.stringify(permissions), updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** @returns false when the row was already gone */
export async function deleteSubuser(tx: Tx, id: number): Promise<boolean> {
  const result = await tx.deleteFrom('subusers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
