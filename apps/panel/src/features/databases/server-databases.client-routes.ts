import type { AppContext } from '@aerie/panel/app-context';
import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import { HttpError } from '@aerie/panel/http/errors';
import { validateRouteBody } from '@aerie/panel/http/validate';
import {
  createServerDatabaseBodySchema,
  serverDatabaseMessages,
  storedDatabaseName,
} from '@aerie/shared/databases/databases-bodies';
import type {
  ServerDatabaseListResponse,
  ServerDatabaseResponse,
} from '@aerie/shared/databases/databases-wire';
import { hasPermission } from '@aerie/shared/permissions/can';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { answeringHostFailure } from './host-failure';
import type { ServerDatabaseWithHost } from './server-database';
import { presentServerDatabase } from './server-database.presenter';

/** `include=password` or `include[]=password` (other names are ignored, as upstream ignores them). */
function wantsPassword(request: FastifyRequest): boolean {
  return Object.entries(request.query as Record<string, string | string[] | undefined>)
    .filter(([key]) => key === 'include' || /^include\[\d*\]$/.test(key))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value ?? '']))
    .some((value) => value.split(',').some((name) => name.trim() === 'password'));
}

/** The 422 of the client's `unique` rule on `database`, with upstream's own message. */
const nameTaken = () =>
  new HttpError(422, 'ValidationException', serverDatabaseMessages.nameTaken, {
    items: [
      {
        code: 'ValidationException',
        status: '422',
        detail: serverDatabaseMessages.nameTaken,
        meta: { source_field: 'database', rule: 'unique' },
      },
    ],
  });

/**
 * `/api/client/servers/{server}/databases*` (reference §7.2 "Databases"). `{database}` is a hashid (or the numeric
 * id) among the server's own databases: another server's database is 404 to everyone, before any other check.
 * What a server's users do is in its activity log, not the admin audit log (`unrecorded`).
 */
export async function serverDatabaseRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { serverDatabases, databaseIds } = ctx;
  const base = '/:server/databases';
  const databaseChild: FastifyContextConfig['serverChild'] = (_db, server, params) =>
    serverDatabases.find(server.id, databaseIds.decode(params.database));
  /** The password for a holder of `database.view_password`, else null (`null_resource`). */
  const passwordFor = (request: FastifyRequest, database: ServerDatabaseWithHost) =>
    hasPermission(accessOf(request).permissions, 'database.view_password')
      ? serverDatabases.passwordOf(database)
      : null;

  app.get(
    base,
    {
      config: {
        permission: 'database.read',
        summary:
          'List the server’s databases (include=password: their passwords, with database.view_password)',
      },
    },
    async (request): Promise<ServerDatabaseListResponse> => {
      const access = accessOf(request);
      const withPassword = wantsPassword(request);
      const databases = await serverDatabases.list(access.server.id);
      return {
        object: 'list',
        data: databases.map((database) =>
          presentServerDatabase(
            databaseIds,
            database,
            withPassword ? passwordFor(request, database) : undefined,
          ),
        ),
      };
    },
  );

  app.post(
    base,
    {
      config: {
        permission: 'database.create',
        body: createServerDatabaseBodySchema,
        summary:
          'Create a database and its user on a host linked to the server’s node (else any host), within the database limit',
      },
    },
    async (request): Promise<ServerDatabaseResponse> => {
      const access = accessOf(request);
      const body = validateRouteBody<typeof createServerDatabaseBodySchema>(request);
      const name = storedDatabaseName(access.server.id, body.database);
      if (await serverDatabases.nameTaken(access.server.id, name)) throw nameTaken();
      const host = await serverDatabases.pickHost(access.server.nodeId);
      const database = await answeringHostFailure('client', () =>
        serverDatabases.create(
          access.server,
          { database: name, remote: body.remote, host },
          access,
          unrecorded,
        ),
      );
      return presentServerDatabase(databaseIds, database, passwordFor(request, database));
    },
  );

  app.post(
    `${base}/:database/rotate-password`,
    {
      config: {
        permission: 'database.update',
        serverChild: databaseChild,
        summary: 'Give the database’s user a new password (shown with database.view_password)',
      },
    },
    async (request): Promise<ServerDatabaseResponse> => {
      const access = accessOf(request);
      const database = await answeringHostFailure('client', () =>
        serverDatabases.rotatePassword(
          access.server,
          childOf<ServerDatabaseWithHost>(request),
          access,
          unrecorded,
        ),
      );
      return presentServerDatabase(databaseIds, database, passwordFor(request, database));
    },
  );

  app.delete(
    `${base}/:database`,
    {
      config: {
        permission: 'database.delete',
        serverChild: databaseChild,
        summary: 'Drop the database and its user on their host',
      },
    },
    async (request, reply) => {
      const access = accessOf(request);
      await answeringHostFailure('client', () =>
        serverDatabases.delete(access.server, childOf<ServerDatabaseWithHost>(request), access, unrecorded),
      );
      return reply.status(204).send();
    },
  );
}
