import { randomToken } from '@aerie/panel/crypto/tokens';
import csrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'aerie_csrf';

/** Laravel's readable copy of a CSRF token, which axios and Laravel-style clients echo as `X-XSRF-TOKEN`. */
export const XSRF_COOKIE = 'XSRF-TOKEN';

/** The secret's cookie, as the plugin sets it and as sendXsrfCookie sets it on a first visit. */
const SECRET_COOKIE = { path: '/', sameSite: 'lax', httpOnly: true } as const;

/** The plugin's default secret length (its secretSync), in bytes. */
const SECRET_BYTES = 18;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF protection in cookie mode: a secret in an HttpOnly cookie, and tokens derived from it, which a client sends
 * back in `X-CSRF-Token` (the SPA, from the shell's meta tag) or `X-XSRF-TOKEN` (Pterodactyl's own client and any
 * Laravel-style client, from the readable `XSRF-TOKEN` cookie: `GET /sanctum/csrf-cookie` and every page set it).
 * Both are checked the same way against the same secret. Every mutating request needs one, unless it is
 * authenticated by an API key (`Authorization: Bearer`), which a foreign site cannot make a browser send, or is an
 * /api/ request with no cookie at all (nothing ambient to forge with: it gets the API's 401), and except /api/remote,
 * which only node tokens open.
 * Failures reach the error handler, which answers 419 "CSRF token mismatch.".
 */
export async function registerCsrf(app: FastifyInstance): Promise<void> {
  await app.register(csrfProtection, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: SECRET_COOKIE,
    getToken: (request) => headerValue(request, 'x-csrf-token') ?? headerValue(request, 'x-xsrf-token'),
    logLevel: 'debug',
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!MUTATING.has(request.method) || /^Bearer\s/i.test(request.headers.authorization ?? ''))
      return done();
    // Daemons never hold a session: /api/remote answers 401 without a token, not 419.
    if (request.url.startsWith('/api/remote/')) return done();
    // No cookie at all carries no ambient credential to forge with: the API's own check answers 401 (as upstream),
    // and every /api/ route needs one. Pages (the sign-in form among them) keep the check.
    if (request.url.startsWith('/api/') && request.headers.cookie === undefined) return done();
    app.csrfProtection(request, reply, done);
  });
}

const headerValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * A token for the shell; creates the secret cookie on a first visit, and puts the same token in the readable
 * XSRF-TOKEN cookie.
 */
export const csrfTokenFor = (request: FastifyRequest, reply: FastifyReply) => sendXsrfCookie(request, reply);

/**
 * Sets XSRF-TOKEN to a token of the browser's secret (made on a first visit), SameSite=Lax, readable by the page's
 * scripts, Secure over HTTPS. @returns the token
 */
export function sendXsrfCookie(request: FastifyRequest, reply: FastifyReply): string {
  const secure = request.protocol === 'https';
  if (!request.cookies[CSRF_COOKIE]) {
    // A first visit: the secret comes from the pooled CSPRNG bytes, not one randomBytes call per page view.
    const secret = randomToken(SECRET_BYTES);
    reply.setCookie(CSRF_COOKIE, secret, { ...SECRET_COOKIE, secure });
    request.cookies[CSRF_COOKIE] = secret;
  }
  const token = reply.generateCsrf({ secure });
  reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'lax', httpOnly: false, secure });
  return token;
}

/** Drops the secret on sign-in and sign-out, so the next page gets tokens from a fresh one. */
export const rotateCsrf = (reply: FastifyReply) =>
  reply.clearCookie(CSRF_COOKIE, { path: '/' }).clearCookie(XSRF_COOKIE, { path: '/' });
