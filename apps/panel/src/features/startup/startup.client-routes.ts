import type { AppContext } from '@aerie/panel/app-context';
import { presentEggVariable } from '@aerie/panel/features/servers/server.presenter';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { startupVariableBodySchema } from '@aerie/shared/startup/startup-bodies';
import type { StartupResponse, StartupVariableResponse } from '@aerie/shared/startup/startup-wire';
import type { FastifyInstance } from 'fastify';

/** `GET …/startup` and `PUT …/startup/variable` (reference §7.2 "Startup and settings"). */
export async function startupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { startup } = ctx;

  app.get(
    '/:server/startup',
    { config: { permission: 'startup.read', summary: 'The startup command, images and variables' } },
    async (request): Promise<StartupResponse> => {
      const view = await startup.view(accessOf(request));
      return {
        object: 'list',
        data: view.variables.map(presentEggVariable),
        meta: {
          startup_command: view.startupCommand,
          docker_images: view.dockerImages,
          raw_startup_command: view.rawStartupCommand,
        },
      };
    },
  );

  app.put(
    '/:server/startup/variable',
    {
      config: {
        permission: 'startup.update',
        body: startupVariableBodySchema,
        summary: 'Set the value of a startup variable',
      },
    },
    async (request): Promise<StartupVariableResponse> => {
      const { key, value } = validateRouteBody<typeof startupVariableBodySchema>(request);
      const result = await startup.updateVariable(accessOf(request), key, value);
      return {
        ...presentEggVariable(result.variable),
        meta: { startup_command: result.startupCommand, raw_startup_command: result.rawStartupCommand },
      };
    },
  );
}
