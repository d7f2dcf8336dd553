import type { Db } from '@aerie/panel/db/database';
import {
  type ServerRecord,
  serverRecordColumns,
  toServerRecord,
} from '@aerie/panel/features/servers/server-record';
import { toUser, type User } from '@aerie/panel/features/users/user';
import { normaliseLogin } from '@aerie/panel/features/users/users.repository';

/** The look-ups of an SFTP login. */

/** The user with this username (usernames are stored lower-cased: any case matches, as on Pterodactyl's MySQL). */
export async function findUserByUsername(db: Db, username: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', normaliseLogin(username))
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

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
