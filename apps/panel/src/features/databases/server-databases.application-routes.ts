import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { findServerRow } from '@aerie/panel/features/servers/servers.repository';
import {
  parseIncludes,
  renderItem,
  renderList,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed, idParam, validateRouteBody } from '@aerie/panel/http/validate';
import {
  applicationServerDatabaseAttributes,
  applicationServerDatabaseBodySchema,
  storedDatabaseName,
} from '@aerie/shared/databases/databases-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answeringHostFailure } from './host-failure';
import type { ServerDatabaseWithHost } from './server-database';
import { serverDatabaseTransformer } from './server-database.transformer';
import { findHosts } from './server-databases.repository';

/**
 * /api/application/servers/{id}/databases* (reference application API §3.6), gated by the keys'
 * `r_server_databases` bit. `{database}` is the numeric id or the hashid, and unlike upstream only among the
 * server's own databases (404 otherwise). Nothing here is in a server's activity log, as upstream logs none of it;
 * each change is in the admin audit log.
 */
export async function serverDatabaseApplicationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'server_databases' } as const;
  const { serverDatabases, databaseIds } = ctx;
  const transformer = serverDatabaseTransformer;

  const serverOf = async (request: FastifyRequest) => {
    const id = idParam((request.params as { id: string }).id);
    const server = await findServerRow(ctx.db, { id });
    if (!server) throw notFound();
    return server;
  };
  const databaseOf = async (request: FastifyRequest) => {
    const server = await serverOf(request);
    const database = await serverDatabases.find(
      server.id,
      databaseIds.decode((request.params as { database: string }).database),
    );
    if (!database) throw notFound();
    return { server, database };
  };
  const render = (request: FastifyRequest, database: ServerDatabaseWithHost) =>
    renderItem(renderContextFor(request, ctx), transformer, database, parseIncludes(request));
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, transformer);

  app.get('/:id/databases', { config }, async (request) => {
    const server = await serverOf(request);
    return renderList(
      renderContextFor(request, ctx),
      transformer,
      await serverDatabases.list(server.id),
      parseIncludes(request),
    );
  });

  app.get('/:id/databases/:database', { config }, async (request) =>
    render(request, (await databaseOf(request)).database),
  );

  app.post(
    '/:id/databases',
    {
      config: {
        ...config,
        audit: 'database.create',
        body: applicationServerDatabaseBodySchema,
        summary: 'Create a database for the server on the given host (within its database limit)',
      },
    },
    async (request, reply) => {
      const server = await serverOf(request);
      const body = validateRouteBody<typeof applicationServerDatabaseBodySchema>(request, {
        attributes: applicationServerDatabaseAttributes,
      });
      const [host] = await findHosts(ctx.db, [body.host]);
      if (!host) throw fieldRuleFailed('host', 'exists', applicationServerDatabaseAttributes);
      const database = await answeringHostFailure('application', () =>
        serverDatabases.create(
          server,
          { database: storedDatabaseName(server.id, body.database), remote: body.remote, host },
          null,
          audit(request),
        ),
      );
      return reply.status(201).send({
        ...(await render(request, database)),
        meta: { resource: resourceUrl(request, `servers/${server.id}/databases/${database.id}`) },
      });
    },
  );

  app.post(
    '/:id/databases/:database/reset-password',
    { config: { ...config, audit: 'database.reset_password' } },
    async (request, reply) => {
      const { server, database } = await databaseOf(request);
      await answeringHostFailure('application', () =>
        serverDatabases.rotatePassword(server, database, null, audit(request)),
      );
      return reply.status(204).send();
    },
  );

  app.delete(
    '/:id/databases/:database',
    { config: { ...config, audit: 'database.delete' } },
    async (request, reply) => {
      const { server, database } = await databaseOf(request);
      await answeringHostFailure('application', () =>
        serverDatabases.delete(server, database, null, audit(request)),
      );
      return reply.status(204).send();
    },
  );
}
