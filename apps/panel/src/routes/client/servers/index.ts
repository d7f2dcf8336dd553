import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { HttpError } from '@aerie/panel/http/errors';
import { presentServer } from '@aerie/panel/presenters/server.presenter';
import { parseIncludes } from '@aerie/panel/servers/server-list.query';
import { loadServerRelations } from '@aerie/panel/servers/server-relations';
import { ServerResourcesService } from '@aerie/panel/servers/server-resources.service';
import { websocketCredentials } from '@aerie/panel/servers/websocket-token';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type {
  ServerResponse,
  StatsResponse,
  WebsocketCredentialsResponse,
} from '@aerie/shared/servers/server-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileRoutes } from './files';
import { registerPowerRoutes } from './power';
import { type ServerAccess, serverAccessHook } from './server-access.hook';

const access = (request: FastifyRequest) => request.serverAccess as ServerAccess;

/**
 * /api/client/servers/{server}/…: every route passes the server access hook first (404 → 409 → 403, driven by
 * the route's config). Later issues (files, backups…) add their routes here with their `permission`.
 */
export async function serverRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const daemon = new DaemonClient(ctx.secretBox);
  const resources = new ServerResourcesService(daemon, ctx.clock);
  app.decorateRequest('serverAccess', null);
  app.addHook('preHandler', serverAccessHook);

  app.get('/:server', { config: { stateExemption: 'always' } }, async (request): Promise<ServerResponse> => {
    const { server, user, isOwner, permissions } = access(request);
    const includes = parseIncludes(request.query as Record<string, string | string[]>);
    const relations = await loadServerRelations(ctx.db, [server], { subusers: includes.has('subusers') });
    return {
      ...presentServer(server, relations, { userId: user.id, permissions }, includes),
      meta: { is_server_owner: isOwner, user_permissions: permissions },
    };
  });

  app.get('/:server/resources', async (request): Promise<StatsResponse> => {
    const { server, node } = access(request);
    return resources.stats(server, node);
  });

  app.get(
    '/:server/websocket',
    {
      config: {
        permission: 'websocket.connect',
        permissionDenied: () =>
          new HttpError(403, 'HttpForbiddenException', serverMessages.websocketForbidden),
        stateExemption: 'root-admin',
      },
    },
    async (request): Promise<WebsocketCredentialsResponse> => {
      const { server, node, user, permissions } = access(request);
      const data = await websocketCredentials({
        server,
        node,
        nodeToken: ctx.secretBox.open(node.daemonToken),
        user,
        permissions,
        issuer: ctx.config.appUrl,
        now: ctx.clock(),
      });
      return { data };
    },
  );

  registerPowerRoutes(app, daemon);
  await app.register(fileRoutes, { daemon });
}
