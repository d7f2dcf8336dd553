import type { AppContext } from '@aerie/panel/app-context';
import { assertTwoFactorSatisfied, identifyClient } from '@aerie/panel/auth/client-api-auth';
import { tooManyRequests } from '@aerie/panel/http/errors';
import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { accountRoutes } from './account';
import { permissionRoutes } from './permissions';
import { serverListRoutes } from './server-list';
import { serverRoutes } from './servers';

/**
 * /api/client/*, in the check order of the reference (§1.1): who is asking — an API key or the session (401),
 * the per-user rate limit (429), the panel's 2FA requirement (400), then for API keys the IP allow-list and the
 * key type (403), then the route. All of it runs in onRequest, before the body is parsed. The limit is
 * API_CLIENT_RATELIMIT requests per minute per user; 0 = off.
 */
export async function clientApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const limit = ctx.config.apiClientRateLimit;
  const limiter =
    limit > 0 ? new RateLimiterMemory({ keyPrefix: 'api-client', points: limit, duration: 60 }) : null;

  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request, reply) => {
    const user = await identifyClient(ctx.apiKeys, request);
    if (limiter) {
      try {
        const state = await limiter.consume(user.uuid);
        reply.header('x-ratelimit-limit', limit).header('x-ratelimit-remaining', state.remainingPoints);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), limit);
      }
    }
    await assertTwoFactorSatisfied(ctx.settings, request, user);
    if (request.apiKey) await ctx.apiKeys.assertUsableOnClientApi(request.apiKey, request.ip);
  });

  await app.register(accountRoutes, { ctx, prefix: '/account' });
  await app.register(permissionRoutes, { prefix: '/permissions' });
  await app.register(serverListRoutes);
  await app.register(serverRoutes, { prefix: '/servers' });
}
