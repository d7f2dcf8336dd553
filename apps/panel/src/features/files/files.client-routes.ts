import type { AppContext } from '@aerie/panel/app-context';
import type { FastifyInstance } from 'fastify';
import { fileChangeRoutes } from './file-changes.client-routes';
import { filePullRoute } from './file-pull.client-routes';
import { fileReadRoutes } from './file-reads.client-routes';
import { fileWriteRoute } from './file-write.client-routes';

/**
 * /api/client/servers/{server}/files/* (pterodactyl-client-api.md §7.2 "Files"), each relayed to the node's
 * daemon, which enforces path safety (and, for `/files/pull`, which hosts a download may reach).
 * Inherits the server access hook: 404 → 409 → the route's `permission` (403) run before any handler.
 */
export async function fileRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(fileReadRoutes, { ctx });
  await app.register(fileChangeRoutes, { ctx });
  await app.register(filePullRoute, { ctx });
  // Its own scope: the write route takes any body raw, which must not change how its siblings parse JSON.
  await app.register(fileWriteRoute, { ctx });
}
