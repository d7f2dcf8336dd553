import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { panelSettingsBodySchema } from '@aerie/shared/panel-settings/panel-settings-bodies';
import type { FastifyInstance } from 'fastify';

/**
 * /api/application/settings (Aerie's, for the admin area): the panel settings that apply without a restart.
 * Resource `settings`: sessions and a root admin's account key only, never an application key, since these
 * settings decide who may sign in and how (2FA, reCAPTCHA) and where mail goes.
 */
export async function panelSettingsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'settings' } as const;
  const item = (attributes: Awaited<ReturnType<typeof ctx.panelSettingsAdmin.view>>) => ({
    object: 'panel_settings',
    attributes,
  });

  app.get('', { config: { ...config, summary: 'Panel settings' } }, async () =>
    item(await ctx.panelSettingsAdmin.view()),
  );

  app.patch(
    '',
    { config: { ...config, body: panelSettingsBodySchema, summary: 'Change panel settings' } },
    async (request) =>
      item(await ctx.panelSettingsAdmin.update(validateRouteBody<typeof panelSettingsBodySchema>(request))),
  );

  app.post(
    '/mail/test',
    { config: { ...config, summary: "Send a test mail to the signed-in admin's address" } },
    async (request, reply) => {
      await ctx.panelSettingsAdmin.sendTestMail(signedInUser(request).email);
      return reply.status(204).send();
    },
  );
}
