import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { ApplicationAllocation } from './allocations.repository';
import { findNodes } from './nodes.repository';

/**
 * `allocation` (reference application API §3.4): `alias` is the raw `ip_alias` (null when unset, no fallback to
 * the IP); `assigned` says whether a server holds it. Its `server` include is wired by `application-includes.ts`.
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
    node: {
      gate: 'nodes',
      renders: 'node',
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
