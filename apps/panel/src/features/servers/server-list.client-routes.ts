import type { AppContext } from '@aerie/panel/app-context';
import type { User } from '@aerie/panel/features/users/user';
import { presentPagination } from '@aerie/panel/http/pagination';
import type { ServerListResponse } from '@aerie/shared/servers/server-wire';
import type { FastifyInstance } from 'fastify';
import { presentServer } from './server.presenter';
import { effectivePermissions } from './server-access';
import { parseServerListQuery } from './server-list.query';
import { listServers } from './server-list.repository';
import { loadServerRelations } from './server-relations';

/** GET /api/client: the servers of the signed-in user (or every server, for root admins asking), paginated. */
export async function serverListRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx;
  app.get('/', async (request): Promise<ServerListResponse> => {
    const user = request.user as User;
    const query = parseServerListQuery(request.query as Record<string, string | string[]>);
    const {
      servers,
      total,
      transferring,
      subuserPermissions: subuserOf,
    } = await listServers(db, user, query);
    const relations = await loadServerRelations(db, servers, {
      subusers: query.includes.has('subusers'),
      transferring,
    });
    return {
      object: 'list',
      data: servers.map((server) =>
        presentServer(
          server,
          relations,
          { userId: user.id, permissions: effectivePermissions(user, server, subuserOf.get(server.id)) },
          query.includes,
          ctx.config.avatarUrlTemplate,
        ),
      ),
      meta: presentPagination(request, {
        total,
        count: servers.length,
        perPage: query.perPage,
        currentPage: query.page,
      }),
    };
  });
}
