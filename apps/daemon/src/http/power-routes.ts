import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import { panelFailure, serverOf } from '@aerie/daemon/http-kit/route-helpers';
import type { PowerAction } from '@aerie/daemon/server/console-server';
import {
  INSTALLING_MESSAGE,
  RESTORING_MESSAGE,
  SUSPENDED_MESSAGE,
  TRANSFERRING_MESSAGE,
} from '@aerie/daemon/server/managed-server';
import type { DaemonPowerBody } from '@aerie/shared/daemon/remote-wire';
import type { FastifyInstance } from 'fastify';

const ACTIONS: readonly PowerAction[] = ['start', 'stop', 'restart', 'kill'];
export const INVALID_POWER_ACTION_MESSAGE =
  'The power action provided was not valid, should be one of "stop", "start", "restart", "kill"';
export const STOPPED_SERVER_COMMAND_MESSAGE = 'Cannot send commands to a stopped server instance.';
export const INVALID_COMMANDS_MESSAGE = 'The commands field must be a list of strings.';
export const REINSTALL_LOCKED_MESSAGE =
  'Cannot reinstall the server while another power action is being processed, please try again later.';

/** Wings: a wait outside 0–300 seconds becomes 30; 0 means "do not wait for the lock". */
function waitMilliseconds(value: unknown): number {
  const seconds = typeof value === 'number' && Number.isFinite(value) ? value : 0;
  return (seconds < 0 || seconds > 300 ? 30 : seconds) * 1000;
}

/** Power, console commands, install, reinstall and sync of one server (`:server` already resolved). */
export async function powerRoutes(scope: FastifyInstance): Promise<void> {
  scope.post<{ Body: Partial<DaemonPowerBody> | undefined }>(
    '/api/servers/:server/power',
    async (request, reply) => {
      const server = serverOf(request);
      const action = request.body?.action as PowerAction;
      if (!ACTIONS.includes(action)) throw new HttpError(422, INVALID_POWER_ACTION_MESSAGE);
      if ((action === 'start' || action === 'restart') && server.isSuspended) {
        throw new HttpError(400, SUSPENDED_MESSAGE);
      }
      if (server.isInstalling) throw new HttpError(409, INSTALLING_MESSAGE);
      if (server.isRestoring) throw new HttpError(409, RESTORING_MESSAGE);
      if (server.isTransferring) throw new HttpError(409, TRANSFERRING_MESSAGE);
      // Accepted now, carried out in the background: a later failure reaches the console as an error event.
      server.powerInBackground(action, waitMilliseconds(request.body?.wait_seconds));
      return reply.status(202).send();
    },
  );

  scope.post<{ Body: { commands?: unknown } | undefined }>(
    '/api/servers/:server/commands',
    async (request, reply) => {
      const server = serverOf(request);
      const commands = request.body?.commands;
      if (!Array.isArray(commands) || !commands.every((c) => typeof c === 'string')) {
        throw new HttpError(422, INVALID_COMMANDS_MESSAGE);
      }
      if (server.state === 'offline') throw new HttpError(502, STOPPED_SERVER_COMMAND_MESSAGE);
      try {
        for (const command of commands) server.sendCommand(command);
      } catch {
        throw new HttpError(502, STOPPED_SERVER_COMMAND_MESSAGE);
      }
      return reply.status(204).send();
    },
  );

  scope.post('/api/servers/:server/install', async (request, reply) => {
    const server = serverOf(request);
    if (server.isInstalling) throw new HttpError(409, INSTALLING_MESSAGE);
    if (server.isRestoring) throw new HttpError(409, RESTORING_MESSAGE);
    if (server.isTransferring) throw new HttpError(409, TRANSFERRING_MESSAGE);
    void server.install();
    return reply.status(202).send();
  });

  scope.post('/api/servers/:server/reinstall', async (request, reply) => {
    const server = serverOf(request);
    if (server.powerLocked) throw new HttpError(409, REINSTALL_LOCKED_MESSAGE);
    if (server.isInstalling) throw new HttpError(409, INSTALLING_MESSAGE);
    if (server.isRestoring) throw new HttpError(409, RESTORING_MESSAGE);
    if (server.isTransferring) throw new HttpError(409, TRANSFERRING_MESSAGE);
    void server.install({ reinstall: true });
    return reply.status(202).send();
  });

  scope.post('/api/servers/:server/sync', async (request, reply) => {
    await serverOf(request).sync().catch(panelFailure);
    return reply.status(204).send();
  });
}
