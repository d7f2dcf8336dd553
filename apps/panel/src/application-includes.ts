import { type AdminServer, loadAdminServers } from '@aerie/panel/features/admin-servers/admin-server';
import { serverTransformer } from '@aerie/panel/features/admin-servers/server.transformer';
import {
  serverById,
  serversInLocation,
  serversOf,
} from '@aerie/panel/features/admin-servers/servers-relation';
import { serverDatabasesRelation } from '@aerie/panel/features/databases/server-database.transformer';
import { eggTransformer } from '@aerie/panel/features/eggs/egg.transformer';
import { eggById, nestById } from '@aerie/panel/features/eggs/egg-relations';
import { type Egg, findEggs, type Nest } from '@aerie/panel/features/eggs/eggs.repository';
import { nestTransformer } from '@aerie/panel/features/eggs/nest.transformer';
import type { Location } from '@aerie/panel/features/locations/location';
import { locationTransformer } from '@aerie/panel/features/locations/location.transformer';
import { locationById, locationOfNode } from '@aerie/panel/features/locations/location-relations';
import type { Mount } from '@aerie/panel/features/mounts/mount';
import { mountTransformer } from '@aerie/panel/features/mounts/mount.transformer';
import { mountRelation } from '@aerie/panel/features/mounts/mount-relations';
import { allocationTransformer } from '@aerie/panel/features/nodes/allocation.transformer';
import type { ApplicationAllocation } from '@aerie/panel/features/nodes/allocations.repository';
import { nodeTransformer } from '@aerie/panel/features/nodes/node.transformer';
import { allocationsOfServer, nodeById, nodesInLocation } from '@aerie/panel/features/nodes/node-relations';
import { type ApplicationNode, findNodes } from '@aerie/panel/features/nodes/nodes.repository';
import { serverRowsWhere } from '@aerie/panel/features/servers/servers.repository';
import { latestTransferRelation } from '@aerie/panel/features/transfers/transfer.transformer';
import type { User } from '@aerie/panel/features/users/user';
import { userTransformer } from '@aerie/panel/features/users/user.transformer';
import { userById } from '@aerie/panel/features/users/user-relations';
import { createIncludeRegistry, type Relation } from '@aerie/panel/http/application/transformer';

/**
 * The Application API's include registry (reference application API §2.3): every transformer by its `object`,
 * and the includes that cross features, wired here from relations each feature exports for the items it owns. A
 * transformer names another only by its `object`, so no transformer imports another and no import cycle forms;
 * this is the one module that sees them all.
 */
export const applicationIncludes = createIncludeRegistry(
  [
    serverTransformer,
    userTransformer,
    nodeTransformer,
    allocationTransformer,
    locationTransformer,
    nestTransformer,
    eggTransformer,
    mountTransformer,
  ],
  {
    server: {
      user: userById((server: AdminServer) => server.row.owner_id),
      allocations: allocationsOfServer((server: AdminServer) => server.row.id),
      node: nodeById((server: AdminServer) => server.row.node_id),
      nest: nestById((server: AdminServer) => server.row.nest_id),
      egg: eggById((server: AdminServer) => server.row.egg_id),
      location: locationOfNode((server: AdminServer) => server.row.node_id),
      databases: serverDatabasesRelation<AdminServer>(),
      transfer: latestTransferRelation((server: AdminServer) => server.row.id),
    },
    user: { servers: serversOf('owner_id', (user: User) => user.id) },
    node: {
      servers: serversOf('node_id', (node: ApplicationNode) => node.id),
      location: locationById((node: ApplicationNode) => node.locationId),
    },
    allocation: { server: serverById((allocation: ApplicationAllocation) => allocation.serverId) },
    location: {
      nodes: nodesInLocation((location: Location) => location.id),
      servers: serversInLocation((location: Location) => location.id),
    },
    nest: { servers: serversOf('nest_id', (nest: Nest) => nest.id) },
    egg: { servers: serversOf('egg_id', (egg: Egg) => egg.id) },
    mount: {
      eggs: mountRelation('eggs', 'eggs', 'egg', findEggs, (egg: Egg) => egg.id),
      nodes: mountRelation('nodes', 'nodes', 'node', findNodes, (node: ApplicationNode) => node.id),
      servers: mountRelation(
        'servers',
        'servers',
        'server',
        async (db, ids) => loadAdminServers(db, await serverRowsWhere(db, 'id', ids)),
        (server: AdminServer) => server.row.id,
      ),
    } satisfies Record<string, Relation<Mount>>,
  },
);
