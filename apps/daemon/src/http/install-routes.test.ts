import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ConsoleServerEvents } from '@aerie/daemon/server/console-server';
import { DAEMON_MESSAGE_PREFIX } from '@aerie/daemon/server/daemon-message';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  demoConfiguration,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FRESH = '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a';
const FAILING = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b';
const EXISTING = '5f6a7b8c-9d0e-4f1a-ab2c-3d4e5f6a7b8c';
let panel: PanelStandIn;
let daemon: TestDaemon;

/** After the install the demo server runs from the file the egg's script wrote. */
const installed = (uuid: string) =>
  demoConfiguration(uuid, { invocation: `"${process.execPath}" demo-server.mjs` });

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(EXISTING, installed(EXISTING));
  daemon = await startTestDaemon({ panel });
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

/** Every event a server emits, in order, as `[name, ...args]`. */
function record(uuid: string) {
  const server = daemon.manager.get(uuid);
  if (!server) throw new Error(`${uuid} is not on the daemon`);
  const events: [keyof ConsoleServerEvents, ...unknown[]][] = [];
  for (const name of [
    'install started',
    'install output',
    'install completed',
    'daemon message',
    'status',
  ] as const) {
    server.on(name, (...args: unknown[]) => events.push([name, ...args]));
  }
  return { server, events };
}

describe('install', () => {
  it('creates a server, runs the demo egg install script, reports success and starts it', {
    timeout: 30_000,
  }, async () => {
    panel.servers.set(FRESH, installed(FRESH));
    expect(
      await daemon.request('POST', '/api/servers', { body: { uuid: FRESH, start_on_completion: true } }),
    ).toMatchObject({ status: 202 });
    const { server, events } = record(FRESH);
    // Browsers reload the server on `install completed`: by then the panel must have the report.
    const reportsAtCompletion = waitForEvent(server, 'install completed').then(() => [
      ...panel.installReports,
    ]);
    await expect
      .poll(() => panel.installReports, { timeout: 20_000 })
      .toEqual([{ uuid: FRESH, body: { successful: true, reinstall: false } }]);
    const directory = path.join(daemon.dataDirectory, 'volumes', FRESH);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect(await readFile(path.join(directory, 'demo-server.mjs'), 'utf8')).toContain('Aerie Demo');
    expect(events.filter(([name]) => name === 'install output').map(([, line]) => line)).toEqual(
      expect.arrayContaining([
        'Writing demo-server.mjs...',
        expect.stringMatching(/^Installed demo-server\.mjs \(\d+ bytes\)/),
      ]),
    );
    // (The opening message went out before this test could listen; the reinstall test sees it.)
    expect(events).toContainEqual([
      'daemon message',
      `${DAEMON_MESSAGE_PREFIX}Installation process completed.`,
    ]);
    expect(await reportsAtCompletion).toEqual([
      { uuid: FRESH, body: { successful: true, reinstall: false } },
    ]);
    expect(events.findIndex(([name]) => name === 'install completed')).toBeGreaterThan(
      events.findIndex(([name]) => name === 'install output'),
    );
    // start_on_completion: the freshly installed server comes up.
    await expect.poll(() => server.state, { timeout: 10_000 }).toBe('running');
    const log = await stat(path.join(daemon.dataDirectory, 'logs/install', `${FRESH}.log`));
    expect(log.mode & 0o777).toBe(0o600);
    const logText = await readFile(path.join(daemon.dataDirectory, 'logs/install', `${FRESH}.log`), 'utf8');
    expect(logText).toContain(`Server UUID:          ${FRESH}`);
    expect(logText).toContain('Container Entrypoint: bash');
    expect(logText).toContain('MOTD=Hello from the stand-in');
    expect(logText).toContain('Writing demo-server.mjs...');

    // Deleting it: 204, the process ends, the files go, sockets hear `deleted`.
    const deleted = waitForEvent(server, 'deleted');
    expect(await daemon.request('DELETE', `/api/servers/${FRESH}`)).toMatchObject({ status: 204 });
    await deleted;
    expect(server.state).toBe('offline');
    await expect(stat(directory)).rejects.toThrow();
    expect((await daemon.request('GET', `/api/servers/${FRESH}`)).status).toBe(404);
  });

  it('reports an install script that exits 1 as unsuccessful, and does not start the server', {
    timeout: 20_000,
  }, async () => {
    panel.servers.set(FAILING, installed(FAILING));
    panel.installScripts.set(FAILING, {
      container_image: 'debian:bookworm-slim',
      entrypoint: 'bash',
      script: 'echo "fetching files"\r\necho "download failed" >&2\r\nexit 1\r\n',
    });
    expect(
      (await daemon.request('POST', '/api/servers', { body: { uuid: FAILING, start_on_completion: true } }))
        .status,
    ).toBe(202);
    const { events } = record(FAILING);
    await expect
      .poll(() => panel.installReports.filter((r) => r.uuid === FAILING), { timeout: 10_000 })
      .toEqual([{ uuid: FAILING, body: { successful: false, reinstall: false } }]);
    expect(events.filter(([name]) => name === 'install output').map(([, line]) => line)).toEqual([
      'fetching files',
      'download failed',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(daemon.manager.get(FAILING)?.state).toBe('offline');
  });

  it('refuses power actions while installing, and reinstalls (stopping the running server first)', {
    timeout: 30_000,
  }, async () => {
    panel.installScripts.set(EXISTING, {
      container_image: 'debian:bookworm-slim',
      entrypoint: 'bash',
      script: 'echo "reinstalling into /mnt/server"\nsleep 1\necho done > /mnt/server/reinstalled.txt\n',
    });
    const server = daemon.manager.get(EXISTING);
    if (!server) throw new Error('missing');
    // The existing server has no files yet: install them, then run it.
    panel.installScripts.delete(EXISTING);
    expect((await daemon.request('POST', `/api/servers/${EXISTING}/install`)).status).toBe(202);
    await expect
      .poll(() => panel.installReports.filter((r) => r.uuid === EXISTING).length, { timeout: 20_000 })
      .toBe(1);
    expect(
      (await daemon.request('POST', `/api/servers/${EXISTING}/power`, { body: { action: 'start' } })).status,
    ).toBe(202);
    await expect.poll(() => server.state, { timeout: 10_000 }).toBe('running');

    panel.installScripts.set(EXISTING, {
      container_image: 'debian:bookworm-slim',
      entrypoint: 'bash',
      script: 'echo "reinstalling into /mnt/server"\nsleep 1\necho done > /mnt/server/reinstalled.txt\n',
    });
    const { events } = record(EXISTING);
    expect((await daemon.request('POST', `/api/servers/${EXISTING}/reinstall`)).status).toBe(202);
    await expect.poll(() => server.isInstalling).toBe(true);
    expect(
      await daemon.request('POST', `/api/servers/${EXISTING}/power`, { body: { action: 'start' } }),
    ).toMatchObject({
      status: 409,
      body: { error: 'Cannot perform this action: the server is currently installing.' },
    });
    expect((await daemon.request('POST', `/api/servers/${EXISTING}/install`)).status).toBe(409);
    await expect
      .poll(() => panel.installReports.filter((r) => r.uuid === EXISTING).length, { timeout: 20_000 })
      .toBe(2);
    expect(panel.installReports.at(-1)).toEqual({
      uuid: EXISTING,
      body: { successful: true, reinstall: true },
    });
    expect(events.filter(([name]) => name === 'status').map(([, state]) => state)).toEqual([
      'stopping',
      'offline',
    ]);
    expect(
      await readFile(path.join(daemon.dataDirectory, 'volumes', EXISTING, 'reinstalled.txt'), 'utf8'),
    ).toBe('done\n');
    expect(events).toContainEqual([
      'install output',
      `reinstalling into ${path.join(daemon.dataDirectory, 'volumes', EXISTING)}`,
    ]);
  });

  it('refuses a uuid that is not version 4 with 422', async () => {
    for (const uuid of ['not-a-uuid', '3d4e5f6a-7b8c-1d9e-8f0a-1b2c3d4e5f6a', undefined, 42]) {
      expect(
        await daemon.request('POST', '/api/servers', { body: { uuid, start_on_completion: false } }),
      ).toMatchObject({
        status: 422,
        body: { error: 'The uuid field must be a valid version 4 UUID.' },
      });
    }
  });

  it('answers 404 when the panel does not know the server being created', async () => {
    const response = await daemon.request('POST', '/api/servers', {
      body: { uuid: '9a9a9a9a-9b9b-4c9c-8d9d-9e9e9e9e9e9e', start_on_completion: false },
    });
    expect(response.status).toBe(404);
    expect((response.body as { error: string }).error).toContain('Server not found.');
  });
});
