import type { AppContext } from '@aerie/panel/app-context';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import type { ServerMountItem, ServerMountListResponse } from '@aerie/shared/mounts/mounts-wire';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { ServerMount } from './server-mounts.service';

const present = ({ mount, attached }: ServerMount): ServerMountItem => ({
  object: 'server_mount',
  attributes: {
    uuid: mount.uuid,
    name: mount.name,
    description: mount.description,
    target: mount.target,
    read_only: mount.readOnly,
    user_mountable: mount.userMountable,
    attached,
  },
});

/** `/api/client/servers/{server}/mounts*`: the mounts a server uses, and those its users may attach themselves. */
export async function serverMountRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { serverMounts } = ctx;
  /** `{mount}` among the mounts the server's users can see: 404 before any other check otherwise. */
  const mountChild: FastifyContextConfig['serverChild'] = (_db, server, params) =>
    serverMounts.find(server, params.mount ?? '');
  const base = '/:server/mounts';

  app.get(
    base,
    { config: { permission: 'mount.read', summary: 'List the mounts the server uses and may use' } },
    async (request): Promise<ServerMountListResponse> => ({
      object: 'list',
      data: (await serverMounts.list(accessOf(request).server)).map(present),
    }),
  );

  app.post(
    `${base}/:mount`,
    {
      config: {
        permission: 'mount.update',
        serverChild: mountChild,
        summary: 'Attach a mount users may attach (at the next start)',
      },
    },
    async (request, reply) => {
      await serverMounts.attach(accessOf(request), childOf<ServerMount>(request));
      return reply.status(204).send();
    },
  );

  app.delete(
    `${base}/:mount`,
    {
      config: {
        permission: 'mount.update',
        serverChild: mountChild,
        summary: 'Detach a mount users may attach (at the next start)',
      },
    },
    async (request, reply) => {
      await serverMounts.detach(accessOf(request), childOf<ServerMount>(request));
      return reply.status(204).send();
    },
  );
}
