import type { AppContext } from '@aerie/panel/app-context';
import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import type { User } from '@aerie/panel/features/users/user';
import { type AdminResource, adminResources } from '@aerie/shared/api-keys/application-keys-wire';
import type { FastifyInstance } from 'fastify';
import { createTestUser } from './factories';

/** Read and write on every resource, as upstream's application API tests give their default key. */
export const ALL_ACCESS = Object.fromEntries(adminResources.map((resource) => [resource, 3])) as Record<
  AdminResource,
  number
>;

/** An application key (`ptla_…`) of `user`; `access` overrides the default of read+write everywhere. */
export async function createApplicationBearer(
  ctx: AppContext,
  user: User,
  access: Partial<Record<AdminResource, number>> = {},
  allowedIps: string[] = [],
): Promise<string> {
  const { key, secret } = await ctx.apiKeys.createApplicationKey(
    user,
    { memo: 'test key', allowedIps, access: { ...ALL_ACCESS, ...access } },
    unrecorded,
  );
  return key.identifier + secret;
}

/** A root admin and an application key of theirs with full access. */
export async function createAdminWithKey(ctx: AppContext) {
  const { user, password } = await createTestUser(ctx, { rootAdmin: true });
  return { admin: user, password, bearer: await createApplicationBearer(ctx, user) };
}

/**
 * A call the way billing modules make it: bearer key, `Accept: Application/vnd.pterodactyl.v1+json`, JSON
 * body; no cookie, no CSRF token.
 */
export function applicationRequest(
  app: FastifyInstance,
  bearer: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  options: { ip?: string } = {},
) {
  return app.inject({
    method,
    url: url.startsWith('/api/') ? url : `/api/application/${url.replace(/^\//, '')}`,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: {
      authorization: `Bearer ${bearer}`,
      accept: 'Application/vnd.pterodactyl.v1+json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

export const notFoundJson = {
  errors: [
    {
      code: 'NotFoundHttpException',
      status: '404',
      detail: 'The requested resource could not be found on the server.',
    },
  ],
};

export const accessDeniedJson = {
  errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }],
};
