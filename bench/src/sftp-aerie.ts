import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { freePort } from './bench-setup';
import { startBenchDaemon } from './console-daemon';
import { type SftpTarget, treeCpuSeconds, waitForPort } from './sftp-client';

/**
 * The real `aerie daemon` (process runtime, its own process; see console-daemon.ts) with one server whose disk
 * limit is `diskMb`, its SFTP server on a free loopback port. The panel stand-in answers the daemon's
 * `POST /api/remote/sftp/auth` as the panel does for the server's owner: `["*"]` for the bench's key, 403 for
 * anything else. Everything goes through the daemon's own path: key login checked with the panel, the jailed
 * filesystem, the disk quota reserved on every write. Its CPU is the daemon process's (all its threads).
 */
export async function startAerieSftp(options: {
  publicKey: string;
  diskMb: number;
  nodeArgs?: string[];
}): Promise<SftpTarget> {
  const uuid = randomUUID();
  const port = await freePort();
  const daemon = await startBenchDaemon([fileServerConfiguration(uuid, { diskMb: options.diskMb })], {
    env: { DAEMON_SFTP_PORT: String(port) },
    nodeArgs: options.nodeArgs,
  });
  try {
    if (!daemon.output().includes(`Aerie SFTP server listening on 127.0.0.1:${port}`)) {
      throw new Error(`the daemon's SFTP server did not start:\n${daemon.output()}`);
    }
    await waitForPort(port, "the daemon's SFTP server");
    const owner = randomUUID();
    daemon.panel.sftpAuth = (body) =>
      body.type === 'public_key' && body.password === options.publicKey
        ? { status: 200, body: { user: owner, server: uuid, permissions: ['*'], jti: `bench-${uuid}` } }
        : { status: 403, body: { errors: [{ detail: 'Authorization credentials were not correct.' }] } };
    const volume = daemon.volume(uuid);
    if (!(await stat(volume).catch(() => undefined))?.isDirectory()) {
      throw new Error(`the server's volume ${volume} was not made`);
    }
    return {
      name: 'Aerie',
      port,
      username: `bench.${uuid.slice(0, 8)}`,
      remoteRoot: '/',
      hostRoot: volume,
      cpuSeconds: () => treeCpuSeconds(daemon.pid),
      stop: daemon.stop,
    };
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}
