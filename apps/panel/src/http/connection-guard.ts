import { guardConnections, proveConnection } from '@aerie/shared/net/connection-guard';
import type { ConnectionLimits } from '@aerie/shared/net/connection-limits';
import type { FastifyInstance } from 'fastify';

export { connectionServerOptions } from '@aerie/shared/net/connection-guard';

/**
 * Bounds the panel's HTTP connections as the daemon's are (packages/shared/src/net/connection-guard.ts): per TCP
 * peer address and in all, header, body/response idle and keep-alive time-outs. When a count is full the new
 * connection closes the longest-unused connection that never carried a signed-in request, so half-sent requests
 * from any number of addresses cannot keep the sign-in page or the API from answering. A request with a session,
 * an API key or a node's token proves its connection: it is never closed to make room. Call before any route.
 */
export function guardPanelConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  guardConnections(app, limits);
  // preParsing runs after every onRequest hook (the session's here, the API key's and the node's in their
  // surfaces), and before the body is read.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.user || request.remoteNode) proveConnection(request.raw.socket);
    return payload;
  });
}
