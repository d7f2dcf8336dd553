import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { type DaemonProcess, startDaemonProcess, testDaemonEnv } from '@aerie/daemon/testing/daemon-process';
import {
  demoConfiguration,
  PANEL_TOKEN,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * kill -9 of a real `aerie daemon` process, source or target, while a transfer streams (slowed to 1 MiB/s so the
 * kill lands mid-stream): the server stays whole on the source and runs again, the target keeps nothing, and the
 * panel hears of the failure.
 */
const UUID = '7a11f00d-0000-4a11-8000-00000000beef';
const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };

let panel: PanelStandIn;
let dataDirectory: string;
const processes: DaemonProcess[] = [];
const inProcess: TestDaemon[] = [];

beforeEach(async () => {
  panel = await startPanelStandIn();
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-transfer-kill-'));
  panel.servers.set(UUID, demoConfiguration(UUID, { skipScripts: true }));
});
afterEach(async () => {
  for (const daemon of processes.splice(0)) daemon.process.kill('SIGKILL');
  for (const daemon of inProcess.splice(0)) await daemon.close();
  await panel.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

/** Unsandboxed, as the in-process daemons: the demo server runs from the repository, which a sandbox does not show. */
function daemonProcess(extra: Record<string, string> = {}): DaemonProcess {
  const started = startDaemonProcess(
    testDaemonEnv(panel.url, dataDirectory, { RUNTIME: 'process-unsafe', ...extra }),
  );
  processes.push(started);
  return started;
}

const stateOn = async (url: string) => {
  const response = await fetch(`${url}/api/servers/${UUID}`, { headers });
  return response.ok ? ((await response.json()) as { state: string }).state : `HTTP ${response.status}`;
};

const transferBody = async (targetUrl: string) => {
  const now = Math.floor(Date.now() / 1000);
  const token = await signTestToken(
    { sub: UUID, server_uuid: UUID, purpose: 'transfer', iat: now, nbf: now, exp: now + 900 },
    { key: NODE_TOKEN },
  );
  return JSON.stringify({
    url: `${targetUrl}/api/transfers`,
    token: `Bearer ${token}`,
    server: { uuid: UUID, start_on_completion: false },
  });
};

describe('kill -9 during a transfer', () => {
  it('of the source: the target keeps nothing, and the next source runs the server as before', async () => {
    // The target boots while the panel has no server for it: only the source has the server.
    const configuration = panel.servers.get(UUID);
    panel.servers.delete(UUID);
    const target = await startTestDaemon({ panel });
    inProcess.push(target);
    panel.servers.set(UUID, configuration as NonNullable<typeof configuration>);
    const first = daemonProcess({ DAEMON_TRANSFER_LIMIT_MB: '1' });
    const sourceUrl = await first.listening();
    await writeFile(path.join(dataDirectory, 'volumes', UUID, 'world.bin'), randomBytes(8 * 1024 * 1024));
    const power = await fetch(`${sourceUrl}/api/servers/${UUID}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'start' }),
    });
    expect(power.status).toBe(202);
    await expect.poll(() => stateOn(sourceUrl), { timeout: 20_000 }).toBe('running');

    const started = await fetch(`${sourceUrl}/api/servers/${UUID}/transfer`, {
      method: 'POST',
      headers,
      body: await transferBody(target.url),
    });
    expect(started.status).toBe(202);
    await expect.poll(() => target.transfers.incoming.has(UUID), { timeout: 20_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    first.process.kill('SIGKILL');
    await first.exited;

    const report = await panel.waitForTransferReport(UUID, 20_000);
    expect(report).toMatchObject({ outcome: 'failure' });
    await expect.poll(() => target.transfers.incoming.has(UUID), { timeout: 10_000 }).toBe(false);
    expect(target.manager.get(UUID)).toBeUndefined();
    expect(await readdir(path.join(target.dataDirectory, 'transfers'))).toEqual([]);
    await expect(stat(path.join(target.dataDirectory, 'volumes', UUID))).rejects.toThrow();

    const second = daemonProcess();
    const again = await second.listening();
    await expect.poll(() => stateOn(again), { timeout: 30_000 }).toBe('running');
    expect((await stat(path.join(dataDirectory, 'volumes', UUID, 'world.bin'))).size).toBe(8 * 1024 * 1024);
  }, 90_000);

  it('of the target: the source runs the server again, and the next target removes the half it had', async () => {
    const targetData = dataDirectory;
    const configuration = panel.servers.get(UUID);
    panel.servers.delete(UUID);
    const first = daemonProcess();
    const targetUrl = await first.listening();
    panel.servers.set(UUID, configuration as NonNullable<typeof configuration>);
    const source = await startTestDaemon({ panel, transferOptions: { limitMibPerSecond: 1 } });
    inProcess.push(source);
    const server = source.manager.get(UUID);
    if (!server) throw new Error('the source has no server');
    await writeFile(path.join(server.directory, 'world.bin'), randomBytes(8 * 1024 * 1024));
    await server.power('start');
    await expect.poll(() => server.state, { timeout: 20_000 }).toBe('running');

    const started = await source.request('POST', `/api/servers/${UUID}/transfer`, {
      body: await transferBody(targetUrl),
    });
    expect(started.status).toBe(202);
    const staging = path.join(targetData, 'transfers', UUID);
    await expect
      .poll(
        () =>
          stat(staging).then(
            () => true,
            () => false,
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    first.process.kill('SIGKILL');
    await first.exited;

    const report = await panel.waitForTransferReport(UUID, 20_000);
    expect(report.outcome).toBe('failure');
    expect(report.reason).toMatch(/could not reach the target node|terminated|other side closed|socket/i);
    await expect.poll(() => server.state, { timeout: 20_000 }).toBe('running');
    expect(server.isTransferring).toBe(false);

    const second = daemonProcess();
    await second.listening();
    expect(await readdir(path.join(targetData, 'transfers'))).toEqual([]);
    await server.power('kill');
  }, 90_000);
});
