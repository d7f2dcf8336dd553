import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { listServerRows } from '@aerie/panel/features/servers/servers.repository';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import { parseIncludes, renderItem, renderPage } from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import {
  createServerBodySchema,
  serverAttributeNames,
  serverBuildBodySchema,
  serverDetailsBodySchema,
  serverStartupBodySchema,
} from '@aerie/shared/servers/server-application-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AdminServer, findAdminServer, loadAdminServers } from './admin-server';
import { serverTransformer } from './server.transformer';

const serverListSpec = {
  filters: {
    uuid: { column: 'servers.uuid' },
    uuidShort: { column: 'servers.uuid_short' },
    name: { column: 'servers.name' },
    description: { column: 'servers.description' },
    image: { column: 'servers.image' },
    external_id: { column: 'servers.external_id' },
  },
  sorts: { id: 'servers.id', uuid: 'servers.uuid' },
} as const;

const bodyOptions = { attributes: serverAttributeNames };

/** /api/application/servers (reference application API §3.5, §4). */
export async function serverRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'servers' } as const;
  const render = (request: FastifyRequest, server: AdminServer) =>
    renderItem(renderContextFor(request, ctx), serverTransformer, server, parseIncludes(request));
  const serverOf = async (request: FastifyRequest) => {
    const server = await findAdminServer(ctx.db, { id: idParam((request.params as { id: string }).id) });
    if (!server) throw notFound();
    return server;
  };
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, serverTransformer);

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, serverListSpec);
    const { rows, total } = await listServerRows(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      serverTransformer,
      { rows: await loadAdminServers(ctx.db, rows), total, page: list.page, perPage: list.perPage },
      parseIncludes(request),
    );
  });

  app.get('/external/:externalId', { config }, async (request) => {
    const server = await findAdminServer(ctx.db, {
      externalId: (request.params as { externalId: string }).externalId,
    });
    if (!server) throw notFound();
    return render(request, server);
  });

  app.get('/:id', { config }, async (request) => render(request, await serverOf(request)));

  app.post(
    '',
    {
      config: {
        ...config,
        audit: 'server.create',
        body: createServerBodySchema,
        summary: 'Create a server (explicit allocation or automatic deployment)',
      },
    },
    async (request, reply) => {
      const server = await ctx.serverCreation.create(
        validateRouteBody<typeof createServerBodySchema>(request),
        audit(request),
      );
      return reply.status(201).send(await render(request, server));
    },
  );

  app.patch(
    '/:id/details',
    {
      config: {
        ...config,
        audit: 'server.details',
        body: serverDetailsBodySchema,
        summary: 'Change name, owner, description, external id',
      },
    },
    async (request) => {
      const server = await serverOf(request);
      return render(
        request,
        await ctx.serverUpdates.updateDetails(
          server,
          validateRouteBody<typeof serverDetailsBodySchema>(request, bodyOptions),
          audit(request),
        ),
      );
    },
  );

  app.patch(
    '/:id/build',
    {
      config: {
        ...config,
        audit: 'server.build',
        body: serverBuildBodySchema,
        summary: 'Change limits and allocations',
      },
    },
    async (request) => {
      const server = await serverOf(request);
      return render(
        request,
        await ctx.serverUpdates.updateBuild(
          server,
          validateRouteBody<typeof serverBuildBodySchema>(request, bodyOptions),
          audit(request),
        ),
      );
    },
  );

  app.patch(
    '/:id/startup',
    {
      config: {
        ...config,
        audit: 'server.startup',
        body: serverStartupBodySchema,
        summary: 'Change egg, startup command, image and variables',
      },
    },
    async (request) => {
      const server = await serverOf(request);
      return render(
        request,
        await ctx.serverUpdates.updateStartup(
          server,
          validateRouteBody<typeof serverStartupBodySchema>(request, bodyOptions),
          audit(request),
        ),
      );
    },
  );

  app.post('/:id/suspend', { config: { ...config, audit: 'server.suspend' } }, async (request, reply) => {
    await ctx.serverUpdates.setSuspended(await serverOf(request), true, audit(request));
    return reply.status(204).send();
  });

  app.post('/:id/unsuspend', { config: { ...config, audit: 'server.unsuspend' } }, async (request, reply) => {
    await ctx.serverUpdates.setSuspended(await serverOf(request), false, audit(request));
    return reply.status(204).send();
  });

  app.post('/:id/reinstall', { config: { ...config, audit: 'server.reinstall' } }, async (request, reply) => {
    await ctx.serverUpdates.reinstall(await serverOf(request), audit(request));
    return reply.status(204).send();
  });

  const deleteConfig = { config: { ...config, audit: 'server.delete' } } as const;

  app.delete('/:id', deleteConfig, async (request, reply) => {
    await ctx.serverDeletion.delete(await serverOf(request), false, audit(request));
    return reply.status(204).send();
  });

  // Upstream's route is `servers/{id}/{force?}`: only the word `force` forces; anything else deletes normally.
  app.delete('/:id/:force', deleteConfig, async (request, reply) => {
    const { force } = request.params as { force: string };
    await ctx.serverDeletion.delete(await serverOf(request), force === 'force', audit(request));
    return reply.status(204).send();
  });
}
