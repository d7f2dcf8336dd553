import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { originOf } from '@aerie/panel/http/request-origin';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { createApiKeyBodySchema } from '@aerie/shared/api-keys/api-keys-bodies';
import type { FastifyInstance } from 'fastify';
import { presentApiKeyList, presentCreatedApiKey } from './api-key.presenter';
import { invalidIpEntries } from './api-key-ips';

/** /api/client/account/api-keys: the user's account API keys (reference §4.2, §7.1). */
export async function apiKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('', async (request) => presentApiKeyList(await ctx.apiKeys.list(signedInUser(request))));

  app.post(
    '',
    {
      config: { body: createApiKeyBodySchema, summary: 'Create an account API key; answers its secret once' },
    },
    async (request) => {
      const user = signedInUser(request);
      const input = validateRouteBody<typeof createApiKeyBodySchema>(request, { after: invalidIpEntries });
      const { key, secret } = await ctx.apiKeys.create(
        user,
        { description: input.description, allowedIps: input.allowed_ips ?? [] },
        originOf(request),
      );
      return presentCreatedApiKey(key, secret);
    },
  );

  app.delete('/:identifier', async (request, reply) => {
    const { identifier } = request.params as { identifier: string };
    await ctx.apiKeys.delete(signedInUser(request), identifier, originOf(request));
    return reply.status(204).send();
  });
}
