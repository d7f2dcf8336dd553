import type { AppContext } from '@aerie/panel/app-context';
import { PANEL_VERSION } from '@aerie/panel/config/version';
import type { FastifyInstance } from 'fastify';

/**
 * GET /api/application/overview (Aerie's, for the admin area): the panel's version, each node with its
 * daemon's health, and the servers counted by state. Needs read on nodes.
 */
export async function overviewRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get(
    '',
    { config: { adminResource: 'nodes', summary: 'Panel version, node health, servers by state' } },
    async () => {
      const [nodes, servers] = await Promise.all([ctx.overview.nodes(), ctx.overview.serverCounts()]);
      return {
        object: 'overview',
        attributes: {
          version: PANEL_VERSION,
          nodes: nodes.map((node) => ({
            id: node.id,
            name: node.name,
            fqdn: node.fqdn,
            maintenance_mode: node.maintenanceMode,
            online: node.online,
            version: node.version,
            cpu_count: node.cpuCount,
            memory_bytes: node.memoryBytes,
          })),
          servers: { total: servers.total, by_status: servers.byStatus },
        },
      };
    },
  );
}
