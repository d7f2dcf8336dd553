import { toWireDate } from '@aerie/panel/db/dialect';
import { loadAdminServers } from '@aerie/panel/features/admin-servers/admin-server';
import { serverTransformer } from '@aerie/panel/features/admin-servers/server.transformer';
import { nodeTransformer } from '@aerie/panel/features/nodes/node.transformer';
import { findNodesInLocations } from '@aerie/panel/features/nodes/nodes.repository';
import { groupBy, type Transformer } from '@aerie/panel/http/application/transformer';
import type { Location } from './location';

/** `location` (reference application API §3.2): `updated_at` before `created_at`, as upstream. */
export const locationTransformer: Transformer<Location> = {
  object: 'location',
  attributes: (location) => ({
    id: location.id,
    short: location.short,
    long: location.long,
    updated_at: toWireDate(location.updatedAt),
    created_at: toWireDate(location.createdAt),
  }),
  includes: {
    nodes: {
      gate: 'nodes',
      transformer: () => nodeTransformer,
      load: async (db, locations) => {
        const byLocation = groupBy(
          await findNodesInLocations(
            db,
            locations.map((location) => location.id),
          ),
          (node) => node.locationId,
        );
        return new Map(locations.map((location) => [location, byLocation.get(location.id) ?? []]));
      },
    },
    servers: {
      gate: 'servers',
      transformer: () => serverTransformer,
      load: async (db, locations) => {
        const rows = await db
          .selectFrom('servers')
          .innerJoin('nodes', 'nodes.id', 'servers.node_id')
          .selectAll('servers')
          .select('nodes.location_id as location_of_node')
          .where(
            'nodes.location_id',
            'in',
            locations.map((location) => location.id),
          )
          .orderBy('servers.id')
          .execute();
        const servers = await loadAdminServers(
          db,
          rows.map(({ location_of_node: _location, ...row }) => row),
        );
        const locationOf = new Map(rows.map((row) => [row.id, row.location_of_node]));
        const byLocation = groupBy(servers, (server) => locationOf.get(server.row.id));
        return new Map(locations.map((location) => [location, byLocation.get(location.id) ?? []]));
      },
    },
  },
};
