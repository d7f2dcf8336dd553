import { type DaemonClient, DaemonResponseError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError, relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import { HttpError } from '@aerie/panel/http/errors';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { hasPermission } from '@aerie/shared/permissions/can';
import { requiredString, rule } from '@aerie/shared/validation/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type PowerSignal, powerPermission, powerSignals } from './power-signal';
import { accessDenied, accessOf } from './server-access.hook';

const powerBody = z.object({
  signal: requiredString().refine((value) => powerSignals.includes(value as PowerSignal), rule('in')),
});

const commandBody = z.object({ command: requiredString().min(1, rule('min')) });

export const notOnlineMessage = 'Server must be online in order to send commands.';

/**
 * `POST …/power` and `POST …/command` (reference §7.2 Core): relayed to the daemon as Wings' `power {action}`
 * and `commands {commands:[…]}`. Both answer 204 once the daemon accepted the request, which is then logged
 * (`server:power.<signal>`, `server:console.command` {command}).
 */
export function registerPowerRoutes(app: FastifyInstance, daemon: DaemonClient) {
  const { activity, db } = app.ctx;
  app.post(
    '/:server/power',
    { config: { body: powerBody, summary: 'Send a power signal (start, stop, restart, kill)' } },
    async (request, reply) => {
      const { server, node, user, isOwner, permissions } = accessOf(request);
      // The permission depends on the signal, so it is checked here rather than by the access hook.
      const permission = powerPermission((request.body as { signal?: unknown } | undefined)?.signal);
      const allowed =
        permission === null ? isOwner || user.rootAdmin : hasPermission(permissions, permission);
      if (!allowed) throw accessDenied();
      const { signal } = validateRouteBody<typeof powerBody>(request);
      await relayDaemonErrors(daemon.forServer(node, server.uuid).power(signal as PowerSignal));
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
      const { server, node } = accessOf(request);
      const { command } = validateRouteBody<typeof commandBody>(request);
      try {
        await daemon.forServer(node, server.uuid).commands([command]);
      } catch (error) {
        // Wings answers 502 when the server is not running (older daemons say so in the message instead).
        if (
          error instanceof DaemonResponseError &&
          (error.status === 502 || /not running/i.test(error.message))
        ) {
          throw new HttpError(502, 'HttpException', notOnlineMessage);
        }
        throw daemonHttpError(error);
      }
      await activity.record(db, {
        event: 'server:console.command',
        ...serverActivity(accessOf(request)),
        properties: { command },
      });
      return reply.status(204).send();
    },
  );
}
