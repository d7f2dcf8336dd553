import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { grantOf, renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { HttpError, notFound, validationFailed } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import {
  type UserBody,
  userAttributeNames,
  userBodySchema,
  usernameRuleMessage,
} from '@aerie/shared/users/users-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from './user';
import { userTransformer } from './user.transformer';
import { findUserByExternalId, findUserById, listUsers, userListSpec } from './users.repository';

/**
 * The body's rules (the route's declared `userBodySchema`); the username check's entry gets its rule name
 * `p_username` (its message is not one of the Laravel rule names the shared mapper knows).
 * @throws HttpError 422 ValidationException
 */
function validateUserBody(request: FastifyRequest): UserBody {
  try {
    return validateRouteBody<typeof userBodySchema>(request, { attributes: userAttributeNames });
  } catch (error) {
    if (!(error instanceof HttpError) || !error.options.items) throw error;
    throw validationFailed(
      error.options.items.map((item) =>
        item.meta?.source_field === 'username' && item.detail === usernameRuleMessage
          ? { ...item, meta: { ...item.meta, rule: 'p_username' } }
          : item,
      ),
    );
  }
}

/** /api/application/users (reference application API §3.1). */
export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'users' } as const;
  const render = (request: FastifyRequest, user: User) =>
    renderItem(renderContextFor(request, ctx), userTransformer, user, parseIncludes(request));
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, userTransformer);

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, userListSpec);
    const page = await listUsers(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      userTransformer,
      { ...page, page: list.page, perPage: list.perPage },
      parseIncludes(request),
    );
  });

  app.get('/:id', { config }, async (request) => {
    const user = await findUserById(ctx.db, idParam((request.params as { id: string }).id));
    if (!user) throw notFound();
    return render(request, user);
  });

  // Billing modules look their customer up by their own client id: exact match, 404 when none.
  app.get('/external/:externalId', { config }, async (request) => {
    const user = await findUserByExternalId(ctx.db, (request.params as { externalId: string }).externalId);
    if (!user) throw notFound();
    return render(request, user);
  });

  app.post(
    '',
    { config: { ...config, audit: 'user.create', body: userBodySchema, summary: 'Create a user' } },
    async (request, reply) => {
      const input = validateUserBody(request);
      await ctx.adminRoles.assertMayChangeUser(grantOf(request), null, input.root_admin === true);
      const user = await ctx.users.create(input, audit(request));
      // Created without a password (how billing modules create customers): the reset link lets them set one.
      if (input.password == null) await ctx.passwordReset.requestLink(user.email);
      const item = await render(request, user);
      return reply
        .status(201)
        .send({ ...item, meta: { resource: resourceUrl(request, `users/${user.id}`) } });
    },
  );

  app.patch(
    '/:id',
    { config: { ...config, audit: 'user.update', body: userBodySchema, summary: 'Update a user' } },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      const target = await findUserById(ctx.db, id);
      if (!target) throw notFound();
      const input = validateUserBody(request);
      await ctx.adminRoles.assertMayChangeUser(grantOf(request), target, input.root_admin === true);
      const user = await ctx.users.update(id, input, audit(request));
      if (input.password != null) {
        // Whoever knew the old password may still be signed in or hold console tokens.
        await ctx.sessions.signOutEverywhere(user.id);
        await ctx.revocation.revokeUserEverywhere(user);
      }
      return render(request, user);
    },
  );

  app.delete('/:id', { config: { ...config, audit: 'user.delete' } }, async (request, reply) => {
    const id = idParam((request.params as { id: string }).id);
    await ctx.adminRoles.assertMayChangeUser(grantOf(request), await findUserById(ctx.db, id));
    const user = await ctx.users.delete(id, audit(request));
    await ctx.revocation.revokeUserEverywhere(user);
    return reply.status(204).send();
  });
}
