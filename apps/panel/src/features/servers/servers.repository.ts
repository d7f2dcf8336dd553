import type { Db } from '@aerie/panel/db/database';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import { type ServerRecord, serverRecordColumns, toServerRecord } from './server-record';
import { parsePermissions } from './stored-permissions';

/**
 * The server named in a URL: exactly 8 characters is the short identifier, anything else the full uuid
 * (Pterodactyl's route binding). Null when there is none.
 */
export async function findServerByIdentifier(db: Db, identifier: string): Promise<ServerRecord | null> {
  const row = await db
    .selectFrom('servers')
    .select(serverRecordColumns)
    .where(identifier.length === 8 ? 'uuid_short' : 'uuid', '=', identifier)
    .executeTakeFirst();
  return row ? toServerRecord(row) : null;
}

export async function findNodeById(db: Db, id: number): Promise<NodeRecord> {
  return toNodeRecord(
    await db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
}

/** The stored permissions of `userId` on each of `serverIds` where it is a subuser. */
export async function subuserPermissionsOf(
  db: Db,
  userId: number,
  serverIds: readonly number[],
): Promise<Map<number, string[]>> {
  if (serverIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('subusers')
    .select(['server_id', 'permissions'])
    .where('user_id', '=', userId)
    .where('server_id', 'in', serverIds)
    .execute();
  return new Map(rows.map((row) => [row.server_id, parsePermissions(row.permissions)]));
}

/** Which of `serverIds` have a transfer still running (successful not yet decided). */
export async function transferringServerIds(db: Db, serverIds: readonly number[]): Promise<Set<number>> {
  if (serverIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('server_transfers')
    .select('server_id')
    .where('server_id', 'in', serverIds)
    .where('successful', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.server_id));
}
