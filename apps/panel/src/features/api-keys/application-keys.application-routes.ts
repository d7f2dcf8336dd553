import type { AppContext } from '@aerie/panel/app-context';
import { toWireDate } from '@aerie/panel/db/dialect';
import { assertBitsWithinGrant } from '@aerie/panel/features/admin-roles/admin-role.policy';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { grantOf } from '@aerie/panel/features/auth/application-api-auth';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { createApplicationKeyBodySchema } from '@aerie/shared/api-keys/application-keys-bodies';
import { adminResources, type ResourceAccess } from '@aerie/shared/api-keys/application-keys-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** An application key in the audit log: as the routes render it (the identifier and access, never the secret). */
const applicationKeySubject = {
  object: 'api_key',
  attributes: (key: ApiKey) => presentApplicationKey(key).attributes,
};

/**
 * /api/application/api-keys: the signed-in admin's application keys (`ptla_…`). Upstream only has admin pages
 * for them; these routes serve the admin area and scripts. An application key cannot call them, so a key can
 * never mint a stronger one.
 */
export async function applicationKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'keys' } as const;
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, applicationKeySubject);

  app.get('', { config }, async (request) => ({
    object: 'list',
    data: (await ctx.apiKeys.listApplicationKeys(signedInUser(request))).map(presentApplicationKey),
  }));

  app.post(
    '',
    {
      config: {
        ...config,
        audit: 'api_key.create',
        body: createApplicationKeyBodySchema,
        summary: 'Create an application key; answers its secret once',
      },
    },
    async (request, reply) => {
      const input = validateRouteBody<typeof createApplicationKeyBodySchema>(request, {
        after: invalidIpEntries,
      });
      const { memo, allowed_ips, ...bits } = input;
      const access = Object.fromEntries(
        adminResources.map((resource) => [resource, bits[`r_${resource}`] ?? 0]),
      ) as ResourceAccess;
      // A key never holds more than its maker (and a maker's role narrowed later narrows the key: see accessBits).
      assertBitsWithinGrant(grantOf(request), access);
      const { key, secret } = await ctx.apiKeys.createApplicationKey(
        signedInUser(request),
        { memo, allowedIps: allowed_ips ?? [], access },
        audit(request),
      );
      return reply
        .status(201)
        .send({ ...presentApplicationKey(key), meta: { secret_token: key.identifier + secret } });
    },
  );

  app.delete('/:identifier', { config: { ...config, audit: 'api_key.delete' } }, async (request, reply) => {
    const { identifier } = request.params as { identifier: string };
    await ctx.apiKeys.deleteApplicationKey(signedInUser(request), identifier, audit(request));
    return reply.status(204).send();
  });
}
