import type { AppContext } from '@aerie/panel/app-context';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import { validateRouteBody } from '@aerie/panel/http/validate';
import type { RequestedPermissions } from '@aerie/shared/permissions/requested-permissions';
import {
  createSubuserBodySchema,
  subuserPermissionsSchema,
  updateSubuserBodySchema,
} from '@aerie/shared/subusers/subusers-bodies';
import type { SubuserListResponse, SubuserResponse } from '@aerie/shared/subusers/subusers-wire';
import { normalizeInput } from '@aerie/shared/validation/normalize-input';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { assertCanGrant, assertNotSelf } from './subuser.policy';
import { presentSubuser } from './subuser.presenter';
import type { SubuserRow } from './subusers.repository';
import { findSubuserByUserUuid } from './subusers.repository';

/** `{user}` (a user's uuid) among the server's own subusers: 404 before any other check, as upstream binds it. */
const subuserChild: FastifyContextConfig['serverChild'] = (db, server, params) =>
  findSubuserByUserUuid(db, server.id, params.user);

/**
 * The body's `permissions` through their own rules (trimmed, each once), for the grant check that runs before the
 * body's other rules, as upstream authorises before it validates; null when they fail those rules, and the body's
 * validation then answers the 422. The body's validation normalises them the same way for the store.
 */
function permissionsToGrant(request: FastifyRequest): RequestedPermissions | null {
  const parsed = subuserPermissionsSchema.safeParse(normalizeInput(request.body));
  return parsed.success ? parsed.data.permissions : null;
}

/** The grant check on the body's permissions, once they passed their rules. */
function assertCanGrantRequested(request: FastifyRequest): void {
  const requested = permissionsToGrant(request);
  if (requested) assertCanGrant(accessOf(request), requested);
}

/** `/api/client/servers/{server}/users*` (reference §7.2 "Subusers"). */
export async function subuserRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { subusers, config } = ctx;
  const present = (subuser: SubuserRow) => presentSubuser(subuser, config.avatarUrlTemplate);

  app.get(
    '/:server/users',
    { config: { permission: 'user.read', summary: 'List the server’s subusers' } },
    async (request): Promise<SubuserListResponse> => ({
      object: 'list',
      data: (await subusers.list(accessOf(request))).map(present),
    }),
  );

  app.post(
    '/:server/users',
    {
      config: {
        permission: 'user.create',
        body: createSubuserBodySchema,
        summary: 'Invite a user by email as a subuser (an account is made and mailed for a new email)',
      },
    },
    async (request): Promise<SubuserResponse> => {
      const access = accessOf(request);
      assertCanGrantRequested(request);
      const body = validateRouteBody<typeof createSubuserBodySchema>(request);
      return present(await subusers.create(access, body));
    },
  );

  app.get(
    '/:server/users/:user',
    { config: { permission: 'user.read', serverChild: subuserChild, summary: 'One subuser, by user uuid' } },
    async (request): Promise<SubuserResponse> => {
      const subuser = childOf<SubuserRow>(request);
      assertNotSelf(accessOf(request), subuser);
      return present(subuser);
    },
  );

  app.post(
    '/:server/users/:user',
    {
      config: {
        permission: 'user.update',
        serverChild: subuserChild,
        body: updateSubuserBodySchema,
        summary: 'Change a subuser’s permissions (their live console and file links are cut off)',
      },
    },
    async (request): Promise<SubuserResponse> => {
      const access = accessOf(request);
      const subuser = childOf<SubuserRow>(request);
      assertNotSelf(access, subuser);
      assertCanGrantRequested(request);
      const { permissions } = validateRouteBody<typeof updateSubuserBodySchema>(request);
      return present(await subusers.update(access, subuser, permissions));
    },
  );

  app.delete(
    '/:server/users/:user',
    {
      config: {
        permission: 'user.delete',
        serverChild: subuserChild,
        summary: 'Remove a subuser (their live console, file links and SFTP sessions end at once)',
      },
    },
    async (request, reply) => {
      const access = accessOf(request);
      const subuser = childOf<SubuserRow>(request);
      assertNotSelf(access, subuser);
      await subusers.remove(access, subuser);
      return reply.status(204).send();
    },
  );
}
