import type { AppContext } from '@aerie/panel/app-context';
import { remoteNodeOf as nodeOf } from '@aerie/panel/features/nodes/node-auth';
import { notFound } from '@aerie/panel/http/errors';
import { validateBody } from '@aerie/panel/http/validate';
import type {
  DaemonInstallScript,
  DaemonServerConfiguration,
  DaemonServerConfigurationPage,
} from '@aerie/shared/daemon/remote-wire';
import type { LaravelRule } from '@aerie/shared/validation/laravel-messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { daemonConfigurations } from './daemon-configuration';
import { findNodeServer, pageOfNodeServers } from './daemon-configuration.repository';
import { installScript, recordInstallResult, resetNodeServerStates } from './server-install';

/** Servers per page of `GET /api/remote/servers` unless asked otherwise (what Wings asks for), and the most. */
export const remotePageSize = { default: 50, max: 100 } as const;

/** Laravel's `boolean`: true, false, 1, 0, "1", "0". */
const laravelBoolean = (value: unknown): boolean | undefined =>
  value === true || value === 1 || value === '1'
    ? true
    : value === false || value === 0 || value === '0'
      ? false
      : undefined;

/** `present|boolean` (`sometimes|boolean` when `optional`). */
const booleanField = (optional: boolean) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) {
        if (optional) return false;
        ctx.addIssue({ code: 'custom', message: 'present' satisfies LaravelRule });
        return z.NEVER;
      }
      const parsed = laravelBoolean(value);
      if (parsed === undefined) {
        ctx.addIssue({ code: 'custom', message: 'boolean' satisfies LaravelRule });
        return z.NEVER;
      }
      return parsed;
    });

const installStatusBody = z.object({ successful: booleanField(false), reinstall: booleanField(true) });

const positiveInt = (value: unknown, fallback: number) => {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) && number >= 1 ? number : fallback;
};

/**
 * /api/remote/servers/*: a daemon's servers (reference/wings.md §1.4), behind the remote surface's node token. A
 * daemon only ever sees the servers of its own node: another node's server is a 404, like a server that does not
 * exist (Pterodactyl before 1.12.1 served any server to any node: CVE-2026-26016).
 */
export async function serversRemoteRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx;
  const serverOf = async (request: FastifyRequest) => {
    const server = await findNodeServer(db, nodeOf(request).id, (request.params as { uuid: string }).uuid);
    if (!server) throw notFound();
    return server;
  };

  app.get('/servers', async (request): Promise<DaemonServerConfigurationPage> => {
    const node = nodeOf(request);
    const query = request.query as Record<string, unknown>;
    const page = positiveInt(query.page, 1);
    const perPage = Math.min(positiveInt(query.per_page, remotePageSize.default), remotePageSize.max);
    const { rows, total } = await pageOfNodeServers(db, node.id, page, perPage);
    const configurations = await daemonConfigurations(db, node, rows);
    return {
      data: rows.map((row) => ({
        uuid: row.uuid,
        ...(configurations.get(row.id) as DaemonServerConfiguration),
      })),
      meta: {
        current_page: page,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        per_page: perPage,
        total,
      },
    };
  });

  app.post('/servers/reset', async (request, reply) => {
    const node = nodeOf(request).id;
    // The daemon booted: the backups, restores and transfers its last run was doing died with it (ended failed).
    await ctx.backupPruner.nodeRestarted(node);
    await ctx.transferReports.nodeRestarted(node);
    await resetNodeServerStates(db, node, ctx.clock());
    return reply.status(204).send();
  });

  app.get('/servers/:uuid', async (request): Promise<DaemonServerConfiguration> => {
    const server = await serverOf(request);
    const configurations = await daemonConfigurations(db, nodeOf(request), [server]);
    return configurations.get(server.id) as DaemonServerConfiguration;
  });

  app.get('/servers/:uuid/install', async (request): Promise<DaemonInstallScript> => {
    const server = await serverOf(request);
    return installScript(db, server.egg_id);
  });

  app.post('/servers/:uuid/install', async (request, reply) => {
    const server = await serverOf(request);
    const result = validateBody(installStatusBody, request.body);
    await recordInstallResult(db, server, result, ctx.clock());
    return reply.status(204).send();
  });
}
