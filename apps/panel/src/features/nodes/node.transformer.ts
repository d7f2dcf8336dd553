import { toWireDate } from '@aerie/panel/db/dialect';
import { groupBy, type Transformer } from '@aerie/panel/http/application/transformer';
import { allocationsOfNodes } from './allocations.repository';
import type { ApplicationNode } from './nodes.repository';

/**
 * `node` (reference application API §3.3): the columns in upstream's table order, then `allocated_resources`.
 * The daemon token and its id are never shown. Items of nodes/deployable also carry upstream's `sum_memory` and
 * `sum_disk` (decimal strings there, as MySQL sums them) before `allocated_resources`. Its `servers` and `location`
 * includes are wired by `application-includes.ts`.
 */
export const nodeTransformer: Transformer<ApplicationNode> = {
  object: 'node',
  attributes: (node) => ({
    id: node.id,
    uuid: node.uuid,
    public: node.public,
    name: node.name,
    description: node.description,
    location_id: node.locationId,
    fqdn: node.fqdn,
    scheme: node.scheme,
    behind_proxy: node.behindProxy,
    maintenance_mode: node.maintenanceMode,
    memory: node.memory,
    memory_overallocate: node.memoryOverallocate,
    disk: node.disk,
    disk_overallocate: node.diskOverallocate,
    upload_size: node.uploadSize,
    daemon_listen: node.daemonListen,
    daemon_sftp: node.daemonSftp,
    daemon_base: node.daemonBase,
    created_at: toWireDate(node.createdAt),
    updated_at: toWireDate(node.updatedAt),
    ...(node.deployable
      ? { sum_memory: String(node.allocated.memory), sum_disk: String(node.allocated.disk) }
      : {}),
    allocated_resources: { memory: node.allocated.memory, disk: node.allocated.disk },
  }),
  includes: {
    allocations: {
      gate: 'allocations',
      renders: 'allocation',
      load: async (db, nodes) => {
        const byNode = groupBy(
          await allocationsOfNodes(
            db,
            nodes.map((node) => node.id),
          ),
          (allocation) => allocation.nodeId,
        );
        return new Map(nodes.map((node) => [node, byNode.get(node.id) ?? []]));
      },
    },
  },
};
