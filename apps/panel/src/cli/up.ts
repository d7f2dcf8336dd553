import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchSupervisor } from '@aerie/daemon/parent-watch';
import { DAEMON_STOP_DEADLINE_MS } from '@aerie/daemon/stop-signals';
import { bootstrapServers } from '@aerie/panel/bootstrap/bootstrap-servers';
import { dispatchPendingInstalls, waitForDaemon } from '@aerie/panel/bootstrap/daemon-installs';
import { loadConfig } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { allowedMountsOfNode } from '@aerie/panel/features/mounts/mount-lookups';
import { findNodeById } from '@aerie/panel/features/servers/servers.repository';
import { bootstrapFirstAdmin } from '@aerie/panel/features/users/bootstrap-admin';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { daemonEnvironment } from './daemon-environment';
import { prepare } from './prepare';
import { servePanel } from './serve';
import { onShutdown } from './shutdown';
import { supervise } from './supervisor';

/** The daemon gives up stopping after DAEMON_STOP_DEADLINE_MS; it is killed only some time after that. */
const DAEMON_KILL_AFTER_MS = DAEMON_STOP_DEADLINE_MS + 2_000;

const aerieBin = fileURLToPath(new URL('../../../../bin/aerie.mjs', import.meta.url));

/**
 * `aerie up` (what `npm start` runs): migrate, create the first admin if there is none, serve the panel and
 * keep a local daemon running as a child process, given the local node's token and the panel's URL; servers
 * never installed are handed to it once it answers. Ctrl-C stops all of it cleanly, game servers included;
 * SIGTERM and SIGHUP stop the panel and the daemon and leave the game servers running (see README, Running).
 */
export async function up(): Promise<void> {
  const config = loadConfig();
  const prepared = await prepare(config, { migrate: true });
  const admin = await bootstrapFirstAdmin(prepared.db, config.admin, console.log);
  const secretBox = new SecretBox(prepared.appKey);
  const { nodeId } = await bootstrapServers(prepared.db, secretBox, config, {
    firstAdminId: admin.created ? await firstAdminId(prepared.db, admin.username) : null,
    print: console.log,
  });
  const node = await findNodeById(prepared.db, nodeId);
  // The local node's mounts may come from the folders its mounts name, unless the operator set the list.
  const allowedMounts =
    process.env.DAEMON_ALLOWED_MOUNTS ?? (await allowedMountsOfNode(prepared.db, nodeId)).join(',');
  const { app, url } = await servePanel(config, prepared);
  const daemon = supervise({
    name: 'daemon',
    command: process.execPath,
    args: [aerieBin, 'daemon'],
    stopTimeoutMs: DAEMON_KILL_AFTER_MS,
    // Only what the daemon needs of this process's environment: the panel's secrets stay here.
    env: daemonEnvironment(process.env, {
      DATA_DIR: config.dataDir,
      DAEMON_PORT: String(config.daemon.port),
      DAEMON_SFTP_PORT: String(config.daemon.sftpPort),
      DAEMON_TOKEN_ID: node.daemonTokenId,
      DAEMON_TOKEN: secretBox.open(node.daemonToken),
      // APP_URL, except when the port was left to the system (PORT=0): then the address it got.
      PANEL_URL: config.port === 0 ? url : config.appUrl,
      DAEMON_DATA_DIR: join(config.dataDir, 'daemon'),
      RUNTIME: config.daemon.runtime,
      DAEMON_ALLOWED_MOUNTS: allowedMounts,
      // The daemon stops itself should this process die without stopping it (kill -9, a crash).
      AERIE_SUPERVISOR_PID: String(process.pid),
    }),
  });
  // Servers never installed (the demo server on a first boot) go to the daemon once it answers.
  const stopInstalls = new AbortController();
  const client = new DaemonClient(secretBox);
  const installs = waitForDaemon(client, node, { timeoutMs: 60_000, signal: stopInstalls.signal })
    .then((ready) =>
      ready ? dispatchPendingInstalls(prepared.db, client, node, { print: console.log }) : null,
    )
    .catch((error: Error) => console.log(`Could not hand pending installs to the daemon: ${error.message}`));
  const stops = onShutdown(async (cause, step) => {
    // `aerie start` gone without a word is a SIGTERM: the game servers keep running for the next daemon.
    const signal = cause === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
    stopInstalls.abort();
    // The daemon hears the signal aerie up got: only Ctrl-C ends the game servers.
    await Promise.all([
      step(
        'the panel',
        installs.then(() => app.close()),
      ),
      step('the daemon', daemon.stop(signal)),
    ]);
    await step('the database', prepared.db.destroy());
    console.log('Aerie stopped.');
  });
  // Kept running by `aerie start` (npm start): killed outright, it can no longer stop this process, which stops.
  const startPid = Number(process.env.AERIE_START_PID);
  if (Number.isInteger(startPid) && startPid > 1) {
    watchSupervisor(startPid, () => stops.request('supervisor gone'));
  }
  // Only now: a signal sent as soon as this line shows must find the handlers in place.
  console.log(`Aerie is running at ${url} (Ctrl-C to stop)`);
}

async function firstAdminId(db: Db, username: string | undefined): Promise<number | null> {
  return username ? ((await findUserByLogin(db, username))?.id ?? null) : null;
}
