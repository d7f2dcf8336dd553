import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ActivityOutbox } from './activity/activity-outbox';
import { ActivityShipper } from './activity/activity-shipper';
import { JwtDenylist } from './auth/jwt-denylist';
import { BackupService } from './backups/backup-service';
import { type DaemonConfig, loadDaemonConfig } from './config/env';
import { buildDaemonApp, type DaemonAppOptions } from './http/app';
import { signedFileRoutes } from './http/signed-file-routes';
import { PanelClient } from './panel-client/panel-client';
import { watchSupervisor } from './parent-watch';
import { RemotePulls } from './pull/remote-pulls';
import { loadRuntimeDriver } from './runtime/driver-loader';
import { ProcessDriver } from './runtime/process/process-driver';
import { ServerManager } from './server/server-manager';
import { SftpServer } from './sftp/sftp-server';
import {
  DAEMON_STOP_DEADLINE_MS,
  finishWithin,
  leavesServersRunning,
  onStopSignals,
  type StopRequests,
} from './stop-signals';
import { IncomingTransfers } from './transfers/incoming-transfers';
import { OutgoingTransfers } from './transfers/outgoing-transfers';
import { consoleWebsocketPlugins } from './websocket/daemon-plugins';

/** The hooks other parts of the daemon plug in through (the console websocket, the signed file URLs). */
export type DaemonPlugins = Pick<
  DaemonAppOptions,
  'registerWebsocket' | 'registerProtected' | 'registerPublic'
>;

/**
 * `aerie daemon`: loads its servers from the panel, starts again those that were running, and serves the daemon
 * API on DAEMON_HOST:DAEMON_PORT until SIGINT (which ends the game servers too), SIGTERM or SIGHUP (which leave
 * them running for the next daemon).
 * @throws DaemonConfigError when the configuration is invalid
 */
export async function runDaemon(
  env: Record<string, string | undefined> = process.env,
  plugins?: DaemonPlugins,
): Promise<void> {
  const config = loadDaemonConfig(env);
  // Made now, at daemon start: console tokens and signed URLs issued before this moment are refused.
  const denylist = new JwtDenylist();
  const hooks = plugins ?? consoleWebsocketPlugins({ denylist });
  // Uploads being staged when the last daemon ended will never be finished: their bytes go.
  await rm(path.join(config.dataDirectory, 'tmp', 'uploads'), { recursive: true, force: true });
  for (const folder of ['volumes', 'logs/install', 'tmp']) {
    await mkdir(path.join(config.dataDirectory, folder), { recursive: true, mode: 0o700 });
  }
  const driver = await loadRuntimeDriver(config.runtime, config.dataDirectory, {
    allowedDestinations: config.gameNetworkAllow,
  });
  const panel = new PanelClient({ url: config.panelUrl, tokenId: config.tokenId, token: config.token });
  const manager = new ServerManager({
    dataDirectory: config.dataDirectory,
    driver,
    panel,
    pauseJobsAt: env.AERIE_TEST_PAUSE_JOB,
    mounts: { allowed: config.allowedMounts, backupDirectory: config.backupDirectory },
  });
  // What SFTP users did, kept on disk until the panel has it (Wings' wings.db activity rows).
  const outbox = await ActivityOutbox.open({
    file: path.join(config.dataDirectory, 'activity-outbox.jsonl'),
  });
  const shipper = new ActivityShipper({ outbox, panel, intervalMs: config.activitySendIntervalMs });
  await mkdir(config.backupDirectory, { recursive: true, mode: 0o700 });
  const backups = new BackupService({
    directory: config.backupDirectory,
    panel,
    pauseBeforeKeeping: env.AERIE_TEST_PAUSE_JOB === 'backup',
  });
  // No backup runs yet: a partial file here was cut short by the last daemon's end.
  const partialBackups = await backups.removeLeftovers();
  if (partialBackups > 0)
    console.log(`Removed ${partialBackups} partial backup file(s) left by an interrupted backup`);
  // The node-token file routes are part of the app; the signed download/upload URLs are its public hook.
  const files = signedFileRoutes({
    dataDirectory: config.dataDirectory,
    uploadLimitMb: config.uploadLimitMb,
    denylist,
    backups,
  });
  const transfers = {
    outgoing: new OutgoingTransfers({ panel, limitMibPerSecond: config.transferLimitMibPerSecond }),
    incoming: new IncomingTransfers({ manager, panel }),
  };
  const app = buildDaemonApp({
    config,
    manager,
    backups,
    transfers,
    pulls: new RemotePulls(config.pull),
    logger: { level: config.logLevel },
    admission: config.admission,
    ...files,
    ...hooks,
  });
  // Before boot: a signal while servers are starting again must still end them and keep their states.
  const sftp: { server?: SftpServer } = {};
  const stopping = stopOnSignals(app, manager, sftp, supervisorPid(env), () =>
    shipper.stop().then(() => outbox.settled()),
  );
  await manager.boot();
  if (stopping.cause !== undefined) return;
  await app.listen({ host: config.host, port: config.port });
  shipper.start();
  sftp.server = await startSftp(config, manager, panel, denylist, outbox);
  if (stopping.cause !== undefined) await sftp.server?.close();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const isolation = driver instanceof ProcessDriver ? `; ${driver.sandbox.describe()}` : '';
  console.log(
    `Aerie daemon listening on http://${config.host}:${port} (runtime: ${driver.name}${isolation})`,
  );
}

/**
 * The SFTP server on DAEMON_HOST:DAEMON_SFTP_PORT. A port it cannot take (another daemon, an sshd on 2022) leaves
 * the daemon running without SFTP, said once on the console, rather than failing the whole node.
 */
async function startSftp(
  config: DaemonConfig,
  manager: ServerManager,
  panel: PanelClient,
  denylist: JwtDenylist,
  activity: ActivityOutbox,
): Promise<SftpServer | undefined> {
  try {
    const server = await SftpServer.start({
      host: config.host,
      port: config.sftpPort,
      dataDirectory: config.dataDirectory,
      manager,
      panel,
      denylist,
      activity,
    });
    console.log(`Aerie SFTP server listening on ${config.host}:${server.port}`);
    return server;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    console.error(`SFTP is off: could not listen on ${config.host}:${config.sftpPort} (${reason}).`);
    return undefined;
  }
}

/** `aerie up` names itself in AERIE_SUPERVISOR_PID; a daemon started by hand has no supervisor to outlive. */
function supervisorPid(env: Record<string, string | undefined>): number | undefined {
  const pid = Number(env.AERIE_SUPERVISOR_PID);
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}

/**
 * Stops taking requests, ends the game servers on SIGINT only (see leavesServersRunning), writes states (they still
 * say what ran), exits; on a signal, or when the supervising `aerie up` has gone without stopping this daemon
 * (killed outright). Repeated signals do not interrupt it; it gives up after DAEMON_STOP_DEADLINE_MS.
 */
function stopOnSignals(
  app: FastifyInstance,
  manager: ServerManager,
  sftp: { server?: SftpServer },
  supervisor: number | undefined,
  stopActivity: () => Promise<void>,
): StopRequests {
  const stopping = onStopSignals((cause) => {
    const leaveRunning = leavesServersRunning(cause);
    console.log(
      `${cause}: stopping the daemon; ${leaveRunning ? 'game servers keep running for the next daemon' : 'ending the game servers'}.`,
    );
    // Open sockets (console websockets) would hold close() forever.
    app.server.closeAllConnections?.();
    finishWithin(
      {
        'the daemon API': app.close(),
        'the SFTP server': sftp.server?.close() ?? Promise.resolve(),
        'the activity outbox': stopActivity(),
        [leaveRunning ? 'the server states' : 'the game servers']: manager.shutdown({ leaveRunning }),
      },
      { deadlineMs: DAEMON_STOP_DEADLINE_MS },
    );
  });
  if (supervisor !== undefined) {
    watchSupervisor(supervisor, () => {
      console.log('The aerie up that started this daemon is gone.');
      stopping.request('supervisor gone');
    });
  }
  return stopping;
}
