import { toWireDate } from '@aerie/panel/db/dialect';
import { serverDatabasesRelation } from '@aerie/panel/features/databases/server-database.transformer';
import { locationTransformer } from '@aerie/panel/features/locations/location.transformer';
import { findLocations } from '@aerie/panel/features/locations/locations.repository';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import { type AdminServer, adminServerFlags } from './admin-server';
import { serverIncludes } from './server-includes';
import { registerServerTransformer } from './servers-relation';

/** `server` of the Application API (reference §3.5), attributes in upstream's order. */
export const serverTransformer: Transformer<AdminServer> = {
  object: 'server',
  attributes: (server) => {
    const { row } = server;
    const flags = adminServerFlags(server);
    return {
      id: row.id,
      external_id: row.external_id,
      uuid: row.uuid,
      identifier: row.uuid_short,
      name: row.name,
      description: row.description,
      status: row.status,
      suspended: row.status === 'suspended',
      limits: {
        memory: row.memory,
        swap: row.swap,
        disk: row.disk,
        io: row.io,
        cpu: row.cpu,
        threads: row.threads,
        oom_disabled: flags.oomDisabled,
      },
      feature_limits: {
        databases: row.database_limit,
        allocations: row.allocation_limit,
        backups: row.backup_limit ?? 0,
      },
      user: row.owner_id,
      node: row.node_id,
      allocation: row.allocation_id,
      nest: row.nest_id,
      egg: row.egg_id,
      container: {
        startup_command: row.startup,
        image: row.image,
        installed: row.status === 'installing' || row.status === 'install_failed' ? 0 : 1,
        environment: server.environment,
      },
      updated_at: toWireDate(flags.updatedAt),
      created_at: toWireDate(flags.createdAt),
    };
  },
  includes: {
    ...serverIncludes,
    databases: serverDatabasesRelation<AdminServer>(),
    location: {
      gate: 'locations',
      transformer: () => locationTransformer,
      async load(db, servers) {
        const nodes = await db
          .selectFrom('nodes')
          .select(['id', 'location_id'])
          .where('id', 'in', [...new Set(servers.map((server) => server.row.node_id))])
          .execute();
        const locationOfNode = new Map(nodes.map((node) => [node.id, node.location_id]));
        const locations = await findLocations(
          db,
          [...new Set(nodes.map((node) => node.location_id))].filter((id): id is number => id !== null),
        );
        const byId = new Map(locations.map((location) => [location.id, location]));
        return new Map(
          servers.map((server) => [server, byId.get(locationOfNode.get(server.row.node_id) ?? 0) ?? null]),
        );
      },
    },
  },
};

registerServerTransformer(serverTransformer);
