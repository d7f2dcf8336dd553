import {
  type ServerRow,
  serverRowsInLocations,
  serverRowsWhere,
} from '@aerie/panel/features/servers/servers.repository';
import { groupBy, type Relation } from '@aerie/panel/http/application/transformer';
import { loadAdminServers } from './admin-server';

// Application API includes that render servers for other features' items (a user's, a node's...); the include
// registry (`application-includes.ts`) wires them.

/** The servers of each parent whose `column` is the parent's id, one query for all parents. */
export function serversOf<T>(
  column: 'owner_id' | 'node_id' | 'nest_id' | 'egg_id',
  idOf: (parent: T) => number,
): Relation<T> {
  return {
    gate: 'servers',
    renders: 'server',
    async load(db, parents) {
      const rows = await serverRowsWhere(db, column, parents.map(idOf));
      const servers = groupBy(await loadAdminServers(db, rows), (server) => server.row[column]);
      return new Map(parents.map((parent) => [parent, servers.get(idOf(parent)) ?? []]));
    },
  };
}

/** The servers on the nodes of each location. */
export function serversInLocation<T>(locationIdOf: (parent: T) => number): Relation<T> {
  return {
    gate: 'servers',
    renders: 'server',
    async load(db, parents) {
      const found = await serverRowsInLocations(db, parents.map(locationIdOf));
      const servers = await loadAdminServers(
        db,
        found.map((entry) => entry.row),
      );
      const locationOf = new Map(found.map((entry) => [entry.row.id, entry.locationId]));
      const byLocation = groupBy(servers, (server) => locationOf.get(server.row.id));
      return new Map(parents.map((parent) => [parent, byLocation.get(locationIdOf(parent)) ?? []]));
    },
  };
}

/** The server holding each parent (an allocation's), or null. */
export function serverById<T>(idOf: (parent: T) => number | null): Relation<T> {
  return {
    gate: 'servers',
    renders: 'server',
    async load(db, parents) {
      const ids = parents.map(idOf).filter((id): id is number => id !== null);
      const rows: ServerRow[] = await serverRowsWhere(db, 'id', ids);
      const servers = new Map((await loadAdminServers(db, rows)).map((server) => [server.row.id, server]));
      return new Map(parents.map((parent) => [parent, servers.get(idOf(parent) ?? 0) ?? null]));
    },
  };
}
