import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { JwtDenylist } from '../auth/jwt-denylist';

/** Wings' text for a body it cannot use. */
export const UNPARSABLE_BODY_MESSAGE =
  'The data passed in the request was not in a parsable format. Please try again.';

const denyBody = z.object({ jtis: z.array(z.string().min(1).max(255)).max(1000) });

/**
 * `POST /api/servers/:server/ws/deny` `{"jtis": [...]}` → 204: the panel revokes a user's websocket tokens on a
 * server when their permissions change. Register it inside the scope that checks the node token.
 */
export const websocketDenyRoute: FastifyPluginAsync<{ denylist: JwtDenylist }> = async (
  app,
  { denylist },
) => {
  app.post<{ Params: { server: string } }>('/api/servers/:server/ws/deny', async (request, reply) => {
    const body = denyBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: UNPARSABLE_BODY_MESSAGE });
    denylist.deny(request.params.server, body.data.jtis);
    return reply.code(204).send();
  });
};
