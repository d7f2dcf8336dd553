import type { AppContext } from '@aerie/panel/app-context';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { validateRouteBody } from '@aerie/panel/http/validate';
import {
  dockerImageBodySchema,
  renameServerBodySchema,
} from '@aerie/shared/server-settings/server-settings-bodies';
import type { FastifyInstance } from 'fastify';

/** `…/settings/rename`, `…/settings/reinstall` and `…/settings/docker-image` (reference §7.2). */
export async function serverSettingsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { serverSettings } = ctx;

  app.post(
    '/:server/settings/rename',
    {
      config: {
        permission: 'settings.rename',
        body: renameServerBodySchema,
        summary: 'Rename the server and change its description',
      },
    },
    async (request, reply) => {
      const body = validateRouteBody<typeof renameServerBodySchema>(request);
      await serverSettings.rename(accessOf(request), body);
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/settings/reinstall',
    { config: { permission: 'settings.reinstall', summary: 'Run the egg’s install script again' } },
    async (request, reply) => {
      await serverSettings.reinstall(accessOf(request));
      return reply.status(202).send([]);
    },
  );

  app.put(
    '/:server/settings/docker-image',
    {
      config: {
        permission: 'startup.docker-image',
        body: dockerImageBodySchema,
        summary: 'Switch the server to another image its egg offers',
      },
    },
    async (request, reply) => {
      const { docker_image } = validateRouteBody<typeof dockerImageBodySchema>(request);
      await serverSettings.setDockerImage(accessOf(request), docker_image);
      return reply.status(204).send();
    },
  );
}
