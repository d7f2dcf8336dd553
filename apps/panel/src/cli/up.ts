import { fileURLToPath } from 'node:url';
import { bootstrapServers } from '../bootstrap/bootstrap-servers';
import { loadConfig } from '../config/load-config';
import { SecretBox } from '../crypto/secret-box';
import type { Db } from '../db/database';
import { bootstrapFirstAdmin } from '../users/bootstrap-admin';
import { findUserByLogin } from '../users/users.repository';
import { prepare } from './prepare';
import { servePanel } from './serve';
import { onShutdown } from './shutdown';
import { supervise } from './supervisor';

const aerieBin = fileURLToPath(new URL('../../../../bin/aerie.mjs', import.meta.url));

/**
 * `aerie up` (what `npm start` runs): migrate, create the first admin if there is none, serve the panel and
 * keep a local daemon running as a child process. Ctrl-C stops all of it cleanly.
 */
export async function up(): Promise<void> {
  const config = loadConfig();
  const prepared = await prepare(config, { migrate: true });
  const admin = await bootstrapFirstAdmin(prepared.db, config.admin, console.log);
  await bootstrapServers(prepared.db, new SecretBox(prepared.appKey), config, {
    firstAdminId: admin.created ? await firstAdminId(prepared.db, admin.username) : null,
    print: console.log,
  });
  const { app, url } = await servePanel(config, prepared);
  const daemon = supervise({
    name: 'daemon',
    command: process.execPath,
    args: [aerieBin, 'daemon'],
    env: {
      ...process.env,
      DATA_DIR: config.dataDir,
      DAEMON_PORT: String(config.daemon.port),
      DAEMON_SFTP_PORT: String(config.daemon.sftpPort),
    },
  });
  console.log(`Aerie is running at ${url} (Ctrl-C to stop)`);
  onShutdown(async () => {
    await app.close();
    await daemon.stop();
    await prepared.db.destroy();
    console.log('Aerie stopped.');
  });
}

async function firstAdminId(db: Db, username: string | undefined): Promise<number | null> {
  return username ? ((await findUserByLogin(db, username))?.id ?? null) : null;
}
