import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const MISSING_AUTHORIZATION_MESSAGE =
  'The required authorization heads were not present in the request.';
export const WRONG_TOKEN_MESSAGE = 'You are not authorized to access this endpoint.';

/** Constant-time: how long a wrong token takes to refuse says nothing about how much of it was right. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Compared against itself when lengths differ, so the time does not depend on where they differ either.
  return timingSafeEqual(a.length === b.length ? a : b, b) && a.length === b.length;
}

/**
 * The panel's node-token check (Wings §1.2): `Authorization: Bearer <node token>`. No or malformed header → 401
 * with `WWW-Authenticate: Bearer`; a wrong token → 403.
 */
export function nodeTokenAuth(token: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^Bearer ([^\s]+)$/.exec(request.headers.authorization ?? '');
    if (!match?.[1]) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: MISSING_AUTHORIZATION_MESSAGE });
    }
    if (!sameToken(match[1], token)) return reply.status(403).send({ error: WRONG_TOKEN_MESSAGE });
  };
}
