import type { AppContext } from '@aerie/panel/app-context';
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
        body: createServerBodySchema,
        summary: 'Create a server (explicit allocation or automatic deployment)',
      },
    },
    async (request, reply) => {
      const server = await ctx.serverCreation.create(
        validateRouteBody<typeof createServerBodySchema>(request),
      );
      return reply.status(201).send(await render(request, server));
    },
  );

  app.patch(
    '/:id/details',
    {
      config: {
        ...config,
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
        ),
      );
    },
  );

  app.patch(
    '/:id/build',
    { config: { ...config, body: serverBuildBodySchema, summary: 'Change limits and allocations' } },
    async (request) => {
      const server = await serverOf(request);
      return render(
        request,
        await ctx.serverUpdates.updateBuild(
          server,
          validateRouteBody<typeof serverBuildBodySchema>(request, bodyOptions),
        ),
      );
    },
  );

  app.patch(
    '/:id/startup',
    {
      config: {
        ...config,
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
        ),
      );
    },
  );

  app.post('/:id/suspend', { config }, async (request, reply) => {
    await ctx.serverUpdates.setSuspended(await serverOf(request), true);
    return reply.status(204).send();
  });

  app.post('/:id/unsuspend', { config }, async (request, reply) => {
    await ctx.serverUpdates.setSuspended(await serverOf(request), false);
    return reply.status(204).send();
  });

  app.post('/:id/reinstall', { config }, async (request, reply) => {
    await ctx.serverUpdates.reinstall(await serverOf(request));
    return reply.status(204).send();
  });

  app.delete('/:id', { config }, async (request, reply) => {
    await ctx.serverDeletion.delete(await serverOf(request), false);
    return reply.status(204).send();
  });

  // Upstream's route is `servers/{id}/{force?}`: only the word `force` forces; anything else deletes normally.
  app.delete('/:id/:force', { config }, async (request, reply) => {
    const { force } = request.params as { force: string };
    await ctx.serverDeletion.delete(await serverOf(request), force === 'force');
    return reply.status(204).send();
  });
}
