import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import { databaseHostBodySchema } from '@aerie/shared/databases/database-hosts-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseHostTransformer } from './database-host.transformer';
import { listHosts } from './database-hosts.repository';

const listSpec = {
  filters: { name: { column: 'database_hosts.name' }, host: { column: 'database_hosts.host' } },
  sorts: { id: 'database_hosts.id', name: 'database_hosts.name' },
} as const;

/**
 * /api/application/database-hosts. Upstream manages hosts only in its admin pages; here the admin area and scripts
 * share these routes, gated by the keys' `r_database_hosts` bit.
 */
export async function databaseHostRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'database_hosts' } as const;
  const hostOf = async (request: FastifyRequest) => {
    const host = await ctx.databaseHosts.find(idParam((request.params as { id: string }).id));
    if (!host) throw notFound();
    return host;
  };
  const render = (request: FastifyRequest, host: Awaited<ReturnType<typeof hostOf>>) =>
    renderItem(renderContextFor(request, ctx), databaseHostTransformer, host, parseIncludes(request));
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, databaseHostTransformer);

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, listSpec);
    const { rows, total } = await listHosts(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      databaseHostTransformer,
      { rows, total, page: list.page, perPage: list.perPage },
      parseIncludes(request),
    );
  });

  app.get('/:id', { config }, async (request) => render(request, await hostOf(request)));

  app.post(
    '',
    {
      config: {
        ...config,
        audit: 'database_host.create',
        body: databaseHostBodySchema,
        summary: 'Add a database host (its connection is checked first)',
      },
    },
    async (request, reply) => {
      const host = await ctx.databaseHosts.create(
        validateRouteBody<typeof databaseHostBodySchema>(request),
        audit(request),
      );
      return reply.status(201).send({
        ...(await render(request, host)),
        meta: { resource: resourceUrl(request, `database-hosts/${host.id}`) },
      });
    },
  );

  app.patch(
    '/:id',
    { config: { ...config, audit: 'database_host.update', body: databaseHostBodySchema } },
    async (request) => {
      const host = await hostOf(request);
      return render(
        request,
        await ctx.databaseHosts.update(
          host,
          validateRouteBody<typeof databaseHostBodySchema>(request),
          audit(request),
        ),
      );
    },
  );

  app.delete('/:id', { config: { ...config, audit: 'database_host.delete' } }, async (request, reply) => {
    await ctx.databaseHosts.delete(idParam((request.params as { id: string }).id), audit(request));
    return reply.status(204).send();
  });
}
