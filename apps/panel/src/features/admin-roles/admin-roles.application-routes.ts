import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { grantOf, renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import { renderItem, renderPage, resourceUrl } from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import {
  adminRoleAttributeNames,
  adminRoleBodySchema,
  userRoleBodySchema,
} from '@aerie/shared/admin-roles/admin-roles-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminRole } from './admin-role';
import { adminRoleTransformer, userRoleAuditShape } from './admin-role.transformer';
import { adminRoleListSpec, findAdminRole, listAdminRoles } from './admin-roles.repository';

const callerOf = (request: FastifyRequest) => ({
  user: signedInUser(request),
  grant: grantOf(request),
});

/** /api/application/roles: admin roles, for root admins and roles holding `roles.read` / `roles.write`. */
export async function adminRoleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'roles' } as const;
  const bodyOptions = { attributes: adminRoleAttributeNames };
  const render = (request: FastifyRequest, role: AdminRole) =>
    renderItem(renderContextFor(request, ctx), adminRoleTransformer, role, new Map());
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, adminRoleTransformer);

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, adminRoleListSpec);
    const page = await listAdminRoles(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      adminRoleTransformer,
      { ...page, page: list.page, perPage: list.perPage },
      new Map(),
    );
  });

  app.get('/:id', { config }, async (request) => {
    const role = await findAdminRole(ctx.db, idParam((request.params as { id: string }).id));
    if (!role) throw notFound();
    return render(request, role);
  });

  app.post(
    '',
    { config: { ...config, audit: 'admin_role.create', body: adminRoleBodySchema } },
    async (request, reply) => {
      const input = validateRouteBody<typeof adminRoleBodySchema>(request, bodyOptions);
      const role = await ctx.adminRoles.create(input, callerOf(request).grant, audit(request));
      return reply.status(201).send({
        ...(await render(request, role)),
        meta: { resource: resourceUrl(request, `roles/${role.id}`) },
      });
    },
  );

  app.patch(
    '/:id',
    { config: { ...config, audit: 'admin_role.update', body: adminRoleBodySchema } },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      const input = validateRouteBody<typeof adminRoleBodySchema>(request, bodyOptions);
      return render(request, await ctx.adminRoles.update(id, input, callerOf(request), audit(request)));
    },
  );

  app.delete('/:id', { config: { ...config, audit: 'admin_role.delete' } }, async (request, reply) => {
    const id = idParam((request.params as { id: string }).id);
    await ctx.adminRoles.delete(id, callerOf(request), audit(request));
    return reply.status(204).send();
  });
}

/**
 * PUT /api/application/users/{id}/role: gives a user a role or takes it away (`role_id` null). A change of who
 * may do what, so it needs `users.write`, and below root the role must not reach further than the caller's.
 */
export async function userRoleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.put(
    '/:id/role',
    { config: { adminResource: 'users', audit: 'user.role', body: userRoleBodySchema } },
    async (request, reply) => {
      const id = idParam((request.params as { id: string }).id);
      const { role_id } = validateRouteBody<typeof userRoleBodySchema>(request, {
        attributes: adminRoleAttributeNames,
      });
      await ctx.adminRoles.assign(
        id,
        role_id,
        callerOf(request),
        auditFor(ctx.audit, request, userRoleAuditShape),
      );
      return reply.status(204).send();
    },
  );
}
