import { buildApp } from '@aerie/panel/app';
import type { Config } from '@aerie/panel/config/load-config';
import type { FastifyInstance } from 'fastify';
import type { Prepared } from './prepare';

/** How long a start waits for Redis before it serves without it. */
const REDIS_CONNECT_WAIT_MS = 3000;

/**
 * Builds the panel, fails the transfers its last run left running, listens on HOST:PORT and starts the schedule
 * worker and the backup pruner; returns the app and the URL it answers on.
 */
export async function servePanel(
  config: Config,
  prepared: Prepared,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp({
    config,
    db: prepared.db,
    appKey: prepared.appKey,
    logger: {
      level: config.logLevel,
      // Readable logs for a person at a terminal, JSON lines for log collectors.
      ...(process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
        : {}),
    },
  });
  // The schedule worker runs with the app: it stops, its running schedules left idle, when the app closes. So
  // does the backup pruner, which marks failed the backups their node never answered for.
  app.addHook('onClose', () => app.ctx.scheduleTicker.stop());
  app.addHook('onClose', () => app.ctx.backupPruner.stop());
  app.addHook('onClose', () => app.ctx.transferReports.stopSweeping());
  // Commands never wait for Redis (they count in this process instead), so give it a moment to connect first:
  // the first sign-ins after a start are then counted where every panel sees them. A Redis that is away does not
  // hold the start up for longer.
  if (!(await app.ctx.shared.connected(REDIS_CONNECT_WAIT_MS))) {
    app.log.warn('Redis (REDIS_URL) did not answer at start: counting in this process until it does.');
  }
  // Transfers running when the panel stopped may have ended unheard: their sources are asked before anything is
  // served, and every minute after.
  await app.ctx.transferReports.sweep();
  await app.listen({ host: config.host, port: config.port });
  app.ctx.scheduleTicker.start();
  app.ctx.backupPruner.start();
  app.ctx.transferReports.startSweeping();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { app, url: `http://${host}:${port}` };
}
