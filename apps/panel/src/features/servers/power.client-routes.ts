import type { AppContext } from '@aerie/panel/app-context';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { hasPermission } from '@aerie/shared/permissions/can';
import { requiredString, rule } from '@aerie/shared/validation/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type PowerSignal, powerPermission, powerSignals } from './power-signal';
import { accessDenied } from './server-access';
import { accessOf } from './server-access.hook';

const powerBody = z.object({
  signal: requiredString().refine((value) => powerSignals.includes(value as PowerSignal), rule('in')),
});

const commandBody = z.object({ command: requiredString().min(1, rule('min')) });

/**
 * `POST …/power` and `POST …/command` (reference §7.2 Core): relayed to the daemon by the power service. Both
 * answer 204 once the daemon accepted the request, which is then logged (`server:power.<signal>`,
 * `server:console.command` {command}).
 */
export async function powerRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { activity, db, power } = ctx;
  app.post(
    '/:server/power',
    { config: { body: powerBody, summary: 'Send a power signal (start, stop, restart, kill)' } },
    async (request, reply) => {
      const { user, isOwner, permissions } = accessOf(request);
      // The permission depends on the signal, so it is checked here rather than by the access hook.
      const permission = powerPermission((request.body as { signal?: unknown } | undefined)?.signal);
      const allowed =
        permission === null ? isOwner || user.rootAdmin : hasPermission(permissions, permission);
      if (!allowed) throw accessDenied();
      const { signal } = validateRouteBody<typeof powerBody>(request);
      await power.power(accessOf(request), signal as PowerSignal);
      await activity.record(db, {
        event: `server:power.${signal as PowerSignal}`,
        ...serverActivity(accessOf(request)),
      });
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/command',
    {
      config: {
        permission: 'control.console',
        body: commandBody,
        summary: 'Send a command to the server’s console',
      },
    },
    async (request, reply) => {
      const { command } = validateRouteBody<typeof commandBody>(request);
      await power.command(accessOf(request), command);
      await activity.record(db, {
        event: 'server:console.command',
        ...serverActivity(accessOf(request)),
        properties: { command },
      });
      return reply.status(204).send();
    },
  );
}
