import type { AppContext } from '@aerie/panel/app-context';
import { accountRoutes } from '@aerie/panel/features/account/account.client-routes';
import { twoFactorRoutes } from '@aerie/panel/features/account/two-factor.client-routes';
import { accountActivityRoutes } from '@aerie/panel/features/activity/activity.client-routes';
import { apiKeyRoutes } from '@aerie/panel/features/api-keys/api-keys.client-routes';
import { assertTwoFactorSatisfied, identifyClient } from '@aerie/panel/features/auth/client-api-auth';
import { oauthLinkRoutes } from '@aerie/panel/features/oauth/oauth-links.client-routes';
import { passkeyRoutes } from '@aerie/panel/features/passkeys/passkeys.client-routes';
import { permissionRoutes } from '@aerie/panel/features/servers/permissions.client-routes';
import { serverListRoutes } from '@aerie/panel/features/servers/server-list.client-routes';
import { sshKeyRoutes } from '@aerie/panel/features/ssh-keys/ssh-keys.client-routes';
import { perUserRateLimit } from '@aerie/panel/http/per-user-rate-limit';
import { originOf } from '@aerie/panel/http/request-origin';
import type { FastifyInstance } from 'fastify';
import { clientServerSurface } from './client-server';

/**
 * /api/client/*, in the check order of the reference (§1.1): who is asking — an API key or the session (401),
 * the per-user rate limit (429), the panel's 2FA requirement (400), then for API keys the IP allow-list and the
 * key type (403), then the route. All of it runs in onRequest, before the body is parsed. The limit is
 * API_CLIENT_RATELIMIT requests per minute per user; 0 = off.
 */
export async function clientSurface(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const consume = perUserRateLimit(ctx.shared, 'api-client', ctx.config.apiClientRateLimit);

  app.addHook('onRequest', async (request, reply) => {
    const user = await identifyClient(ctx.apiKeys, request);
    await consume(user.uuid, reply);
    await assertTwoFactorSatisfied(ctx.settings, request, user);
    if (request.apiKey) await ctx.apiKeys.assertUsableOnClientApi(request.apiKey, originOf(request));
  });

  await app.register(accountRoutes, { ctx, prefix: '/account' });
  await app.register(twoFactorRoutes, { ctx, prefix: '/account/two-factor' });
  await app.register(apiKeyRoutes, { ctx, prefix: '/account/api-keys' });
  await app.register(sshKeyRoutes, { ctx, prefix: '/account/ssh-keys' });
  await app.register(passkeyRoutes, { ctx, prefix: '/account/passkeys' });
  await app.register(oauthLinkRoutes, { ctx, prefix: '/account/oauth' });
  await app.register(accountActivityRoutes, { ctx, prefix: '/account/activity' });
  await app.register(permissionRoutes, { ctx, prefix: '/permissions' });
  await app.register(serverListRoutes, { ctx });
  await app.register(clientServerSurface, { ctx, prefix: '/servers' });
}
