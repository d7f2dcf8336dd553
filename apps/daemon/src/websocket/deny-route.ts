import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { JwtDenylist } from '../auth/jwt-denylist';

/** Wings' text for a body it cannot use. */
export const UNPARSABLE_BODY_MESSAGE =
  'The data passed in the request was not in a parsable format. Please try again.';

/** Wings' text for a server this daemon does not have. */
const NOT_FOUND_MESSAGE = 'The requested resource does not exist on this instance.';

export interface WebsocketDenyRouteOptions {
  denylist: JwtDenylist;
  /** When given, an unknown server is answered with 404 (as Wings' server middleware does). */
  serverExists?: (uuid: string) => boolean;
}

const denyBody = z.object({ jtis: z.array(z.string().min(1).max(255)).max(1000) });

/**
 * `POST /api/servers/:server/ws/deny` `{"jtis": [...]}` → 204: the panel revokes a user's websocket tokens on a
 * server when their permissions change. Register it inside the scope that checks the node token.
 */
export const websocketDenyRoute: FastifyPluginAsync<WebsocketDenyRouteOptions> = async (app, options) => {
  const { denylist, serverExists } = options;
  app.post<{ Params: { server: string } }>('/api/servers/:server/ws/deny', async (request, reply) => {
    if (serverExists && !serverExists(request.params.server)) {
      return reply.code(404).send({ error: NOT_FOUND_MESSAGE });
    }
    const body = denyBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: UNPARSABLE_BODY_MESSAGE });
    denylist.deny(request.params.server, body.data.jtis);
    return reply.code(204).send();
  });
};
