import type { Db } from '@aerie/panel/db/database';
import {
  type ServerRecord,
  serverRecordColumns,
  toServerRecord,
} from '@aerie/panel/features/servers/server-record';

/** The server look-up of an SFTP login (the account's comes from users/user-lookups.ts). */

/** A server of this node by its uuid or its 8-character identifier; another node's server is none. */
export async function findNodeServerByIdentifier(
  db: Db,
  nodeId: number,
  identifier: string,
): Promise<ServerRecord | null> {
  const id = identifier.toLowerCase();
  const row = await db
    .selectFrom('servers')
    .select(serverRecordColumns)
    .where('servers.node_id', '=', nodeId)
    .where((eb) => eb.or([eb('servers.uuid', '=', id), eb('servers.uuid_short', '=', id)]))
    .executeTakeFirst();
  return row ? toServerRecord(row) : null;
}
