import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../../app-context';
import { tooManyRequests, unauthenticated } from '../../http/errors';
import { accountRoutes } from './account';
import { serverListRoutes } from './server-list';
import { serverRoutes } from './servers';

/**
 * /api/client/*: signed-in users only (401 first), then the per-user rate limit (429), then the route —
 * the check order of the reference. The limit is API_CLIENT_RATELIMIT requests per minute per user; 0 = off.
 */
export async function clientApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const limit = ctx.config.apiClientRateLimit;
  const limiter =
    limit > 0 ? new RateLimiterMemory({ keyPrefix: 'api-client', points: limit, duration: 60 }) : null;

  app.addHook('preHandler', async (request, reply) => {
    const user = request.user;
    if (!user) throw unauthenticated();
    if (!limiter) return;
    try {
      const state = await limiter.consume(user.uuid);
      reply.header('x-ratelimit-limit', limit).header('x-ratelimit-remaining', state.remainingPoints);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), limit);
    }
  });

  await app.register(accountRoutes, { prefix: '/account' });
  await app.register(serverListRoutes);
  await app.register(serverRoutes, { prefix: '/servers' });
}
