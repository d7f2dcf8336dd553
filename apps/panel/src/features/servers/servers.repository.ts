import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readCount, readDate } from '@aerie/panel/db/dialect';
import { reusableQuery } from '@aerie/panel/db/reusable-query';
import type { ServersTable } from '@aerie/panel/db/schema-servers';
import type { Tx } from '@aerie/panel/db/transaction';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { type Insertable, NoResultError, type Selectable, type Updateable } from 'kysely';
import { type ServerRecord, serverRecordColumns, toServerRecord } from './server-record';
import { parsePermissions } from './stored-permissions';

const accessColumns = (db: Db) =>
  db
    .selectFrom('servers')
    .innerJoin('nodes', 'nodes.id', 'servers.node_id')
    .select(serverRecordColumns)
    .select([
      'nodes.uuid as node_uuid',
      'nodes.name as node_name',
      'nodes.fqdn as node_fqdn',
      'nodes.scheme as node_scheme',
      'nodes.maintenance_mode as node_maintenance_mode',
      'nodes.daemon_listen as node_daemon_listen',
      'nodes.daemon_sftp as node_daemon_sftp',
      'nodes.daemon_token_id as node_daemon_token_id',
      'nodes.daemon_token as node_daemon_token',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('server_transfers')
            .select('server_transfers.id')
            .whereRef('server_transfers.server_id', '=', 'servers.id')
            .where('server_transfers.successful', 'is', null),
        )
        .as('transferring'),
    );
/** The access look-up by one identifier column, compiled once per database (see reusableQuery). */
const accessBy = (column: 'servers.uuid_short' | 'servers.uuid') =>
  reusableQuery((db: Db, userId: number, identifier: string) =>
    accessColumns(db)
      .leftJoin('subusers', (join) =>
        join.onRef('subusers.server_id', '=', 'servers.id').on('subusers.user_id', '=', userId),
      )
      .select('subusers.permissions as subuser_permissions')
      .where(column, '=', identifier),
  );
const accessByShortId = accessBy('servers.uuid_short');
const accessByUuid = accessBy('servers.uuid');

/** What every server route checks, read in one query: the server, its node, the caller as subuser, a transfer. */
export interface ServerAccessRecord {
  server: ServerRecord;
  node: NodeRecord;
  /** The caller's stored permissions when it is a subuser of the server. */
  subuserPermissions: string[] | undefined;
  isTransferring: boolean;
}

/**
 * The server named in a URL, with what its access check needs: exactly 8 characters is the short identifier,
 * anything else the full uuid (Pterodactyl's route binding). Null when there is none.
 */
export async function findServerAccess(
  db: Db,
  identifier: string,
  userId: number,
): Promise<ServerAccessRecord | null> {
  const [row] = await (identifier.length === 8 ? accessByShortId : accessByUuid)(db, userId, identifier);
  if (!row) return null;
  return {
    server: toServerRecord(row),
    node: {
      id: row.node_id,
      uuid: row.node_uuid,
      name: row.node_name,
      fqdn: row.node_fqdn,
      scheme: row.node_scheme,
      maintenanceMode: readBool(row.node_maintenance_mode),
      daemonListen: row.node_daemon_listen,
      daemonSftp: row.node_daemon_sftp,
      daemonTokenId: row.node_daemon_token_id,
      daemonToken: row.node_daemon_token,
    },
    subuserPermissions:
      row.subuser_permissions === null ? undefined : parsePermissions(row.subuser_permissions),
    isTransferring: readBool(row.transferring as unknown as number | boolean),
  };
}

/** Every node (a revocation tells them all). */
export async function listNodeRecords(db: Db): Promise<NodeRecord[]> {
  return (await db.selectFrom('nodes').selectAll().execute()).map(toNodeRecord);
}

const nodeById = reusableQuery((db: Db, id: number) =>
  db.selectFrom('nodes').selectAll().where('id', '=', id),
);

export async function findNodeById(db: Db, id: number): Promise<NodeRecord> {
  const [row] = await nodeById(db, id);
  if (!row)
    throw new NoResultError(db.selectFrom('nodes').selectAll().where('id', '=', id).toOperationNode());
  return toNodeRecord(row);
}

// The one-server forms of the two look-ups below, which every server route makes: compiled once.
const subuserOnServer = reusableQuery((db: Db, userId: number, serverId: number) =>
  db
    .selectFrom('subusers')
    .select(['server_id', 'permissions'])
    .where('user_id', '=', userId)
    .where('server_id', '=', serverId),
);
const transferOfServer = reusableQuery((db: Db, serverId: number) =>
  db
    .selectFrom('server_transfers')
    .select('server_id')
    .where('server_id', '=', serverId)
    .where('successful', 'is', null),
);

/** The stored permissions of `userId` on each of `serverIds` where it is a subuser. */
export async function subuserPermissionsOf(
  db: Db,
  userId: number,
  serverIds: readonly number[],
): Promise<Map<number, string[]>> {
  if (serverIds.length === 0) return new Map();
  const [only] = serverIds;
  const rows =
    serverIds.length === 1 && only !== undefined
      ? await subuserOnServer(db, userId, only)
      : await db
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
  const [only] = serverIds;
  const rows =
    serverIds.length === 1 && only !== undefined
      ? await transferOfServer(db, only)
      : await db
          .selectFrom('server_transfers')
          .select('server_id')
          .where('server_id', 'in', serverIds)
          .where('successful', 'is', null)
          .execute();
  return new Set(rows.map((row) => row.server_id));
}

export type ServerRow = Selectable<ServersTable>;

/** A server's whole row by id or external id (the Application API's server); undefined when there is none. */
export async function findServerRow(db: Db, where: { id: number } | { externalId: string }) {
  const query = db.selectFrom('servers').selectAll();
  return (
    'id' in where ? query.where('id', '=', where.id) : query.where('external_id', '=', where.externalId)
  ).executeTakeFirst();
}

/** A page of whole server rows for the Application API's list (its filters and sort), and how many match. */
export async function listServerRows(db: Db, list: ListQuery) {
  return runList(dialectOf(db), db.selectFrom('servers').selectAll(), list, 'servers.id');
}

/** Whole rows of the servers whose `column` is one of `ids`, in id order (a user's, node's, nest's or egg's). */
export async function serverRowsWhere(
  db: Db,
  column: 'id' | 'owner_id' | 'node_id' | 'nest_id' | 'egg_id',
  ids: readonly number[],
): Promise<ServerRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('servers')
    .selectAll()
    .where(column, 'in', [...new Set(ids)])
    .orderBy('id')
    .execute();
}

/** Whole rows of the servers on nodes in these locations, each with its node's location, in id order. */
export async function serverRowsInLocations(db: Db, locationIds: readonly number[]) {
  if (locationIds.length === 0) return [];
  const rows = await db
    .selectFrom('servers')
    .innerJoin('nodes', 'nodes.id', 'servers.node_id')
    .selectAll('servers')
    .select('nodes.location_id as location_of_node')
    .where('nodes.location_id', 'in', [...new Set(locationIds)])
    .orderBy('servers.id')
    .execute();
  return rows.map(({ location_of_node, ...row }) => ({
    row: row as ServerRow,
    locationId: location_of_node,
  }));
}

/** Another server holding this external id (null ids are never compared). */
export async function serverWithExternalId(db: Db, externalId: string, exceptId?: number) {
  let query = db.selectFrom('servers').select('id').where('external_id', '=', externalId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

/** Another server whose primary allocation this is. */
export async function serverWithPrimaryAllocation(db: Db, allocationId: number, exceptId: number) {
  return db
    .selectFrom('servers')
    .select('id')
    .where('allocation_id', '=', allocationId)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

/** Inserts a server row and returns its id (read back by uuid: not every dialect returns inserted ids). */
export async function insertServerRow(tx: Tx, values: Insertable<ServersTable> & { uuid: string }) {
  await tx.insertInto('servers').values(values).execute();
  const { id } = await tx
    .selectFrom('servers')
    .select('id')
    .where('uuid', '=', values.uuid)
    .executeTakeFirstOrThrow();
  return id;
}

/** Writes these columns of a server. */
export async function updateServerRow(db: Db | Tx, id: number, changes: Updateable<ServersTable>) {
  await db.updateTable('servers').set(changes).where('id', '=', id).execute();
}

/** Deletes a server's row; what references it goes with it (foreign keys cascade) or was released before. */
export async function deleteServerRow(tx: Tx, id: number) {
  await tx.deleteFrom('servers').where('id', '=', id).execute();
}

/**
 * Memory and disk given to the node's servers, summed, leaving out `exceptServerId` (a server being resized). A
 * server a running transfer brings to the node counts already: it will be there, and its allocations are held.
 */
export async function committedResources(db: Db | Tx, nodeId: number, exceptServerId?: number) {
  let query = db
    .selectFrom('servers')
    .select((eb) => [
      eb.fn.sum<number | string>('memory').as('memory'),
      eb.fn.sum<number | string>('disk').as('disk'),
    ])
    .where((eb) =>
      eb.or([
        eb('node_id', '=', nodeId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('server_transfers')
            .select('server_transfers.server_id')
            .where('server_transfers.new_node', '=', nodeId)
            .where('server_transfers.successful', 'is', null),
        ),
      ]),
    );
  if (exceptServerId !== undefined) query = query.where('id', '!=', exceptServerId);
  const row = await query.executeTakeFirst();
  return { memory: readCount(row?.memory), disk: readCount(row?.disk) };
}

/** A server's subuser with what is shown of their account. */
export interface ServerSubuser {
  /** The subuser row's own id. */
  id: number;
  userId: number;
  serverId: number;
  uuid: string;
  username: string;
  email: string;
  useTotp: boolean;
  permissions: string[];
  /** The account's creation (what the client API's subuser shows). */
  createdAt: Date;
  /** The subuser row's own times (what the Application API's subuser shows). */
  subuserCreatedAt: Date;
  subuserUpdatedAt: Date;
}

/** Subusers joined to their accounts; narrow it with `where` and order it as the caller needs. */
export const subuserQuery = (db: Db | Tx) =>
  db
    .selectFrom('subusers')
    .innerJoin('users', 'users.id', 'subusers.user_id')
    .select([
      'subusers.id',
      'subusers.user_id',
      'subusers.server_id',
      'subusers.permissions',
      'subusers.created_at as subuser_created_at',
      'subusers.updated_at as subuser_updated_at',
      'users.uuid',
      'users.username',
      'users.email',
      'users.use_totp',
      'users.created_at',
    ]);

export const toServerSubuser = (
  row: Awaited<ReturnType<ReturnType<typeof subuserQuery>['executeTakeFirstOrThrow']>>,
): ServerSubuser => ({
  id: row.id,
  userId: row.user_id,
  serverId: row.server_id,
  uuid: row.uuid,
  username: row.username,
  email: row.email,
  useTotp: readBool(row.use_totp),
  permissions: parsePermissions(row.permissions),
  createdAt: readDate(row.created_at),
  subuserCreatedAt: readDate(row.subuser_created_at),
  subuserUpdatedAt: readDate(row.subuser_updated_at),
});

/** The subusers of these servers, in the order they were added. */
export async function subusersOfServers(db: Db, serverIds: readonly number[]): Promise<ServerSubuser[]> {
  if (serverIds.length === 0) return [];
  const rows = await subuserQuery(db)
    .where('subusers.server_id', 'in', [...new Set(serverIds)])
    .orderBy('subusers.id')
    .execute();
  return rows.map(toServerSubuser);
}
