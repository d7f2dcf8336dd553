import csrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'aerie_csrf';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF protection in cookie mode: a secret in an HttpOnly cookie, and tokens derived from it in the shell's
 * meta tag that the SPA echoes in `X-CSRF-Token`. Every mutating request needs one, unless it is authenticated
 * by an API key (`Authorization: Bearer`), which a foreign site cannot make a browser send, and except
 * /api/remote, which only node tokens open.
 * Failures reach the error handler, which answers 419 "CSRF token mismatch.".
 */
export async function registerCsrf(app: FastifyInstance): Promise<void> {
  await app.register(csrfProtection, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
    logLevel: 'debug',
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!MUTATING.has(request.method) || /^Bearer\s/i.test(request.headers.authorization ?? ''))
      return done();
    // Daemons never hold a session: /api/remote answers 401 without a token, not 419.
    if (request.url.startsWith('/api/remote/')) return done();
    app.csrfProtection(request, reply, done);
  });
}

/** A token for the shell; creates the secret cookie on a first visit. */
export const csrfTokenFor = (request: FastifyRequest, reply: FastifyReply) =>
  reply.generateCsrf({ secure: request.protocol === 'https' });

/** Drops the secret on sign-in and sign-out, so the next page gets tokens from a fresh one. */
export const rotateCsrf = (reply: FastifyReply) => reply.clearCookie(CSRF_COOKIE, { path: '/' });
