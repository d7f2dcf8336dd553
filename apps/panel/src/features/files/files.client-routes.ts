import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { FastifyInstance } from 'fastify';
import { registerFileChangeRoutes } from './file-changes.client-routes';
import { registerFilePullRoute } from './file-pull.client-routes';
import { registerFileReadRoutes } from './file-reads.client-routes';
import { fileWriteRoute } from './file-write.client-routes';

/**
 * /api/client/servers/{server}/files/* (pterodactyl-client-api.md §7.2 "Files"), each relayed to the node's
 * daemon, which enforces path safety (and, for `/files/pull`, which hosts a download may reach).
 * Inherits the server access hook: 404 → 409 → the route's `permission` (403) run before any handler.
 */
export async function fileRoutes(app: FastifyInstance, { daemon }: { daemon: DaemonClient }) {
  registerFileReadRoutes(app, daemon);
  registerFileChangeRoutes(app, daemon);
  registerFilePullRoute(app, daemon);
  // Its own scope: the write route takes any body raw, which must not change how its siblings parse JSON.
  await app.register(fileWriteRoute, { daemon });
}
