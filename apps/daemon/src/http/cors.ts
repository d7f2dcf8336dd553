import type { FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_HEADERS =
  'Accept, Accept-Encoding, Authorization, Cache-Control, Content-Type, Content-Length, Origin, X-Real-IP, X-CSRF-Token';

/**
 * Wings' CORS: the panel's origin by default, or the request's origin when DAEMON_ALLOWED_ORIGINS lists it
 * (`*` answers `*`). Preflights end here with 204, before authentication.
 */
export function corsHook(panelUrl: string, allowedOrigins: readonly string[]) {
  const panelOrigin = new URL(panelUrl).origin;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    let allow = panelOrigin;
    if (origin && origin !== panelOrigin) {
      const listed = allowedOrigins.find((entry) => entry === '*' || entry === origin);
      if (listed) allow = listed;
    }
    reply.header('access-control-allow-origin', allow);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
    reply.header('access-control-allow-headers', ALLOWED_HEADERS);
    reply.header('access-control-max-age', '7200');
    reply.header('vary', 'Origin');
    if (request.method === 'OPTIONS') return reply.status(204).send();
  };
}
