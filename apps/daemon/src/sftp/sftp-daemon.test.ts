import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DaemonProcess, startDaemonProcess, testDaemonEnv } from '@aerie/daemon/testing/daemon-process';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { PANEL_TOKEN, type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, openSftp } from './testing/sftp-stand';

/** `aerie daemon` serves SFTP on DAEMON_SFTP_PORT with a host key it makes once and keeps. */
let panel: PanelStandIn;
let dataDirectory: string;
let daemon: DaemonProcess | undefined;
const UUID = randomUUID();

beforeEach(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  panel.sftpAuth = (body) =>
    body.password === 'pw'
      ? { status: 200, body: { user: randomUUID(), server: UUID, permissions: ['*'], jti: 'j' } }
      : { status: 403, body: {} };
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-daemon-sftp-'));
});
afterEach(async () => {
  daemon?.process.kill('SIGKILL');
  await daemon?.exited;
  await panel.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function start(sftpPort: number): DaemonProcess {
  daemon = startDaemonProcess(
    testDaemonEnv(panel.url, dataDirectory, { DAEMON_SFTP_PORT: String(sftpPort) }),
  );
  return daemon;
}

/** Logs in and returns the host key the server showed. */
async function hostKeyOf(port: number): Promise<string> {
  let seen = '';
  const client = await openSftp(port, {
    username: `alice.${UUID.slice(0, 8)}`,
    password: 'pw',
    hostVerifier: (key: Buffer) => {
      seen = key.toString('base64');
      return true;
    },
  });
  expect(await call(client.sftp, 'realpath', '.')).toBe('/');
  client.end();
  await client.closed;
  return seen;
}

describe('aerie daemon', () => {
  // Two daemon starts through tsx: seconds each on a loaded machine.
  it('listens for SFTP on DAEMON_SFTP_PORT with an ed25519 host key kept in its data directory', {
    timeout: 20_000,
  }, async () => {
    const port = await freePort();
    const first = start(port);
    await first.listening();
    expect(first.output()).toContain(`Aerie SFTP server listening on 127.0.0.1:${port}`);
    const key = await hostKeyOf(port);
    expect(Buffer.from(key, 'base64').subarray(4, 15).toString()).toBe('ssh-ed25519');
    expect((await stat(path.join(dataDirectory, '.sftp', 'id_ed25519'))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dataDirectory, '.sftp'))).mode & 0o777).toBe(0o700);

    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = start(port);
    await second.listening();
    expect(await hostKeyOf(port)).toBe(key);
  });

  it('keeps running without SFTP when the port is taken, and says so', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const running = start(port);
      const url = await running.listening();
      expect(running.output()).toContain(`SFTP is off: could not listen on 127.0.0.1:${port} (EADDRINUSE).`);
      const system = await fetch(`${url}/api/system`, {
        headers: { authorization: `Bearer ${PANEL_TOKEN}` },
      });
      expect(system.status).toBe(200);
    } finally {
      blocker.close();
    }
  });
});
