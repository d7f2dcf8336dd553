import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { validateRouteBody } from '@aerie/panel/http/validate';
import {
  type PanelSettingsAttributes,
  panelSettingsBodySchema,
} from '@aerie/shared/panel-settings/panel-settings-bodies';
import type { FastifyInstance } from 'fastify';

/**
 * The settings in the audit log: as the route renders them (the SMTP password masked; the reCAPTCHA secret only
 * as whether one is set, and that flag itself redacted by its name).
 */
const settingsSubject = {
  object: 'settings',
  attributes: (attributes: PanelSettingsAttributes) => ({ ...attributes }),
};

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
    {
      config: {
        ...config,
        audit: 'settings.update',
        body: panelSettingsBodySchema,
        summary: 'Change panel settings',
      },
    },
    async (request) => {
      const body = validateRouteBody<typeof panelSettingsBodySchema>(request);
      return item(await ctx.panelSettingsAdmin.update(body, auditFor(ctx.audit, request, settingsSubject)));
    },
  );

  // Sending a test mail changes nothing.
  app.post(
    '/mail/test',
    { config: { ...config, audit: false, summary: "Send a test mail to the signed-in admin's address" } },
    async (request, reply) => {
      await ctx.panelSettingsAdmin.sendTestMail(signedInUser(request).email);
      return reply.status(204).send();
    },
  );
}
