import type { AppContext } from '@aerie/panel/app-context';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { HttpError } from '@aerie/panel/http/errors';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type { WebsocketCredentialsResponse } from '@aerie/shared/servers/server-wire';
import type { FastifyInstance } from 'fastify';
import { websocketCredentials } from './websocket-token';

/** `GET /api/client/servers/{server}/websocket`: the console socket's address and a token for it. */
export async function websocketRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
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
      const { server, node, user, permissions } = accessOf(request);
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
}
