import type { AppContext } from '@aerie/panel/app-context';
import type { ServerResponse, StatsResponse } from '@aerie/shared/servers/server-wire';
import type { FastifyInstance } from 'fastify';
import { presentServer } from './server.presenter';
import { accessOf } from './server-access.hook';
import { parseIncludes } from './server-list.query';
import { loadServerRelations } from './server-relations';

/** `GET /api/client/servers/{server}` and `…/resources` (reference §7.2 Core), behind the server access hook. */
export async function serverRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('/:server', { config: { stateExemption: 'always' } }, async (request): Promise<ServerResponse> => {
    const { server, user, isOwner, permissions } = accessOf(request);
    const includes = parseIncludes(request.query as Record<string, string | string[]>);
    const relations = await loadServerRelations(ctx.db, [server], { subusers: includes.has('subusers') });
    return {
      ...presentServer(
        server,
        relations,
        { userId: user.id, permissions },
        includes,
        ctx.config.avatarUrlTemplate,
      ),
      meta: { is_server_owner: isOwner, user_permissions: permissions },
    };
  });

  app.get('/:server/resources', async (request): Promise<StatsResponse> => {
    const { server, node } = accessOf(request);
    return ctx.serverResources.stats(server, node);
  });
}
