import { loadAdminServers } from '@aerie/panel/features/admin-servers/admin-server';
import { serverTransformer } from '@aerie/panel/features/admin-servers/server.transformer';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { ApplicationAllocation } from './allocations.repository';
import { nodeTransformer } from './node.transformer';
import { findNodes } from './nodes.repository';

/**
 * `allocation` (reference application API §3.4): `alias` is the raw `ip_alias` (null when unset, no fallback to
 * the IP); `assigned` says whether a server holds it.
 */
export const allocationTransformer: Transformer<ApplicationAllocation> = {
  object: 'allocation',
  attributes: (allocation) => ({
    id: allocation.id,
    ip: allocation.ip,
    alias: allocation.alias,
    port: allocation.port,
    notes: allocation.notes,
    assigned: allocation.serverId !== null,
  }),
  includes: {
    server: {
      gate: 'servers',
      transformer: () => serverTransformer,
      load: async (db, allocations) => {
        const ids = [...new Set(allocations.map((allocation) => allocation.serverId))].filter(
          (id): id is number => id !== null,
        );
        const rows =
          ids.length === 0 ? [] : await db.selectFrom('servers').selectAll().where('id', 'in', ids).execute();
        const servers = new Map((await loadAdminServers(db, rows)).map((server) => [server.row.id, server]));
        return new Map(
          allocations.map((allocation) => [allocation, servers.get(allocation.serverId ?? 0) ?? null]),
        );
      },
    },
    node: {
      gate: 'nodes',
      transformer: () => nodeTransformer,
      load: async (db, allocations) => {
        const nodes = new Map(
          (
            await findNodes(
              db,
              allocations.map((allocation) => allocation.nodeId),
            )
          ).map((node) => [node.id, node]),
        );
        return new Map(allocations.map((allocation) => [allocation, nodes.get(allocation.nodeId) ?? null]));
      },
    },
  },
};
