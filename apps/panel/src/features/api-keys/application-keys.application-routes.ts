import type { AppContext } from '@aerie/panel/app-context';
import { toWireDate } from '@aerie/panel/db/dialect';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { createApplicationKeyBodySchema } from '@aerie/shared/api-keys/application-keys-bodies';
import { adminResources } from '@aerie/shared/api-keys/application-keys-wire';
import type { FastifyInstance } from 'fastify';
import type { ApiKey } from './api-key';
import { invalidIpEntries } from './api-key-ips';

/** `api_key` of an application key: its access per resource as the reference's `r_*` columns. */
export function presentApplicationKey(key: ApiKey) {
  return {
    object: 'api_key' as const,
    attributes: {
      identifier: key.identifier,
      memo: key.description,
      allowed_ips: key.allowedIps,
      ...Object.fromEntries(adminResources.map((resource) => [`r_${resource}`, key.access[resource]])),
      last_used_at: key.lastUsedAt ? toWireDate(key.lastUsedAt) : null,
      created_at: toWireDate(key.createdAt),
    },
  };
}

/**
 * /api/application/api-keys: the signed-in admin's application keys (`ptla_…`). Upstream only has admin pages
 * for them; these routes serve the admin area and scripts. An application key cannot call them, so a key can
 * never mint a stronger one.
 */
export async function applicationKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'keys' } as const;

  app.get('', { config }, async (request) => ({
    object: 'list',
    data: (await ctx.apiKeys.listApplicationKeys(signedInUser(request))).map(presentApplicationKey),
  }));

  app.post(
    '',
    {
      config: {
        ...config,
        body: createApplicationKeyBodySchema,
        summary: 'Create an application key; answers its secret once',
      },
    },
    async (request, reply) => {
      const input = validateRouteBody<typeof createApplicationKeyBodySchema>(request, {
        after: invalidIpEntries,
      });
      const { memo, allowed_ips, ...bits } = input;
      const { key, secret } = await ctx.apiKeys.createApplicationKey(signedInUser(request), {
        memo,
        allowedIps: allowed_ips ?? [],
        access: Object.fromEntries(adminResources.map((resource) => [resource, bits[`r_${resource}`] ?? 0])),
      });
      return reply
        .status(201)
        .send({ ...presentApplicationKey(key), meta: { secret_token: key.identifier + secret } });
    },
  );

  app.delete('/:identifier', { config }, async (request, reply) => {
    const { identifier } = request.params as { identifier: string };
    await ctx.apiKeys.deleteApplicationKey(signedInUser(request), identifier);
    return reply.status(204).send();
  });
}
