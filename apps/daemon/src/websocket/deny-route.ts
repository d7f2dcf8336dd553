import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import type { DaemonNodeDenyBody, DaemonServerDenyBody } from '@aerie/shared/daemon/deny-wire';
import { denyLimits } from '@aerie/shared/daemon/deny-wire';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';

/** Wings' text for a body it cannot use. */
export const UNPARSABLE_BODY_MESSAGE =
  'The data passed in the request was not in a parsable format. Please try again.';

/** Wings' text for a server this daemon does not have. */
const NOT_FOUND_MESSAGE = 'The requested resource does not exist on this instance.';

export interface WebsocketDenyRouteOptions {
  denylist: JwtDenylist;
  /** When given, an unknown server is answered with 404 (as Wings' server middleware does). */
  serverExists?: (uuid: string) => boolean;
  /**
   * Called once a deny is recorded, with the server it named (undefined: every server): open sockets look at their
   * token again and those now refused are closed.
   */
  onDenied?: (serverUuid: string | undefined) => void;
}

const ids = z.array(z.string().min(1).max(denyLimits.maxEntryLength)).max(denyLimits.maxEntries);

const serverDenyBody: z.ZodType<DaemonServerDenyBody> = z
  .object({ jtis: ids.optional(), user_uuids: ids.optional() })
  .refine((body) => body.jtis !== undefined || body.user_uuids !== undefined);

const nodeDenyBody: z.ZodType<DaemonNodeDenyBody> = z.object({ user_uuids: ids });

/**
 * The panel takes access away (packages/shared/src/daemon/deny-wire.ts):
 * - `POST /api/servers/:server/ws/deny` `{"jtis"?: [...], "user_uuids"?: [...]}` → 204: those jtis' and users'
 *   tokens for this server (Wings' route takes `jtis` alone; `user_uuids` is ours);
 * - `POST /api/deny` `{"user_uuids": [...]}` → 204: those users' tokens for every server on this node.
 * Register it inside the scope that checks the node token.
 */
export const websocketDenyRoute: FastifyPluginAsync<WebsocketDenyRouteOptions> = async (app, options) => {
  const { denylist, serverExists, onDenied } = options;
  app.post<{ Params: { server: string } }>('/api/servers/:server/ws/deny', async (request, reply) => {
    const server = request.params.server;
    if (serverExists && !serverExists(server)) return reply.code(404).send({ error: NOT_FOUND_MESSAGE });
    const body = serverDenyBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: UNPARSABLE_BODY_MESSAGE });
    denylist.deny(server, body.data.jtis ?? []);
    denylist.denyUsers(server, body.data.user_uuids ?? []);
    onDenied?.(server);
    return reply.code(204).send();
  });

  app.post('/api/deny', async (request, reply) => {
    const body = nodeDenyBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: UNPARSABLE_BODY_MESSAGE });
    denylist.denyUsersEverywhere(body.data.user_uuids);
    onDenied?.(undefined);
    return reply.code(204).send();
  });
};
