import type { FastifyRequest } from 'fastify';

/** Where a request came from, as the activity log records it next to who made it. */
export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
  /** Made with an API key (`Authorization: Bearer`), not from the panel's own pages. */
  isApi: boolean;
}

/** The origin of a request (after the client surface identified it: `apiKey` is set for key requests). */
export function originOf(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip,
    // Bounded: the header is the client's to choose, and it is stored with every sign-in event.
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    isApi: request.apiKey != null,
  };
}
