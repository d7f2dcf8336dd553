import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerState, ServerStats } from '@aerie/daemon/server/console-server';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  demoConfiguration,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { nodeStartup } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const DEMO = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SUSPENDED = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const STUBBORN = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
let panel: PanelStandIn;
let daemon: TestDaemon;

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(DEMO, demoConfiguration(DEMO, { environment: { MOTD: 'Power test' } }));
  panel.servers.set(SUSPENDED, demoConfiguration(SUSPENDED, { suspended: true }));
  // Never prints its done line and ignores `stop`: a start holds the power lock for as long as we like.
  panel.servers.set(
    STUBBORN,
    demoConfiguration(STUBBORN, {
      invocation: nodeStartup('stubborn.mjs'),
      done: ['never printed'],
    }),
  );
  daemon = await startTestDaemon({ panel });
  await writeFile(
    path.join(daemon.dataDirectory, 'volumes', STUBBORN, 'stubborn.mjs'),
    'console.log("stubborn up"); process.stdin.resume();',
  );
});
afterEach(async () => {
  await Promise.all(daemon.manager.list().map((server) => server.power('kill')));
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

const get = async (uuid: string) =>
  (await daemon.request('GET', `/api/servers/${uuid}`)).body as {
    state: ServerState;
    is_suspended: boolean;
    utilization: ServerStats;
    configuration: { uuid: string };
  };
const stateOf = async (uuid: string) => (await get(uuid)).state;
const power = (uuid: string, body: unknown) => daemon.request('POST', `/api/servers/${uuid}/power`, { body });
const logs = async (uuid: string, size?: number) =>
  (
    (await daemon.request('GET', `/api/servers/${uuid}/logs${size ? `?size=${size}` : ''}`)).body as {
      data: string[];
    }
  ).data;

describe('power, commands and logs over HTTP', () => {
  it('starts the demo server, sends it a command, shows it in the logs and stops it', {
    timeout: 20_000,
  }, async () => {
    expect(await get(DEMO)).toMatchObject({
      state: 'offline',
      is_suspended: false,
      utilization: { state: 'offline', memory_bytes: 0, uptime: 0 },
      configuration: { uuid: DEMO },
    });
    expect(await power(DEMO, { action: 'start' })).toMatchObject({ status: 202 });
    await expect.poll(() => stateOf(DEMO), { timeout: 10_000 }).toBe('running');
    expect(await logs(DEMO)).toContain('Message of the day: Power test');

    expect(
      await daemon.request('POST', `/api/servers/${DEMO}/commands`, {
        body: { commands: ['say hi there', 'list'] },
      }),
    ).toMatchObject({ status: 204 });
    await expect.poll(() => logs(DEMO), { timeout: 5000 }).toContain('[Server] hi there');
    await expect.poll(() => logs(DEMO), { timeout: 5000 }).toContain('No players online.');
    expect(await logs(DEMO, 2)).toHaveLength(2);

    // Stats arrive every second while running; the process group is really measured.
    await expect
      .poll(async () => (await get(DEMO)).utilization.memory_bytes, { timeout: 5000 })
      .toBeGreaterThan(0);
    const { utilization } = await get(DEMO);
    expect(utilization).toMatchObject({ state: 'running', memory_limit_bytes: 256_000_000 });
    expect(utilization.uptime).toBeGreaterThan(0);

    expect(await power(DEMO, { action: 'stop' })).toMatchObject({ status: 202 });
    await expect.poll(() => stateOf(DEMO), { timeout: 10_000 }).toBe('offline');
    expect(await logs(DEMO)).toContain('Server stopped.');
    expect((await get(DEMO)).utilization).toMatchObject({ memory_bytes: 0, cpu_absolute: 0, uptime: 0 });
    expect(
      await daemon.request('POST', `/api/servers/${DEMO}/commands`, { body: { commands: ['say late'] } }),
    ).toMatchObject({ status: 502, body: { error: 'Cannot send commands to a stopped server instance.' } });
  });

  it('refuses an unknown power action and bad commands with 422', async () => {
    for (const body of [{ action: 'explode' }, {}, { action: 7 }, undefined]) {
      expect(await power(DEMO, body)).toMatchObject({
        status: 422,
        body: {
          error:
            'The power action provided was not valid, should be one of "stop", "start", "restart", "kill"',
        },
      });
    }
    expect(
      await daemon.request('POST', `/api/servers/${DEMO}/commands`, { body: { commands: 'say hi' } }),
    ).toMatchObject({ status: 422, body: { error: 'The commands field must be a list of strings.' } });
    expect(await stateOf(DEMO)).toBe('offline');
  });

  it('refuses to start or restart a suspended server with 400, but stop and kill are accepted', async () => {
    for (const action of ['start', 'restart']) {
      expect(await power(SUSPENDED, { action })).toMatchObject({
        status: 400,
        body: { error: 'Cannot start or restart a server that is suspended.' },
      });
    }
    expect((await power(SUSPENDED, { action: 'kill' })).status).toBe(202);
    expect(await get(SUSPENDED)).toMatchObject({ state: 'offline', is_suspended: true });
  });

  it('waits wait_seconds for the power lock; 0 fails at once with an error event', {
    timeout: 20_000,
  }, async () => {
    const server = daemon.manager.get(STUBBORN);
    if (!server) throw new Error('stubborn server missing');
    const errors: string[] = [];
    server.on('error', (message) => errors.push(message));
    expect((await power(STUBBORN, { action: 'start' })).status).toBe(202);
    await expect.poll(() => logs(STUBBORN)).toContain('stubborn up');
    // It ignores `stop`: the stop holds the power lock until its 5 s grace ends (or a kill).
    expect((await power(STUBBORN, { action: 'stop' })).status).toBe(202);
    await expect.poll(() => stateOf(STUBBORN)).toBe('stopping');

    expect((await power(STUBBORN, { action: 'restart', wait_seconds: 0 })).status).toBe(202);
    await expect
      .poll(() => errors)
      .toEqual(['another power action is currently being processed for this server, please try again later']);
    const started = Date.now();
    expect((await power(STUBBORN, { action: 'start', wait_seconds: 1 })).status).toBe(202);
    await expect.poll(() => errors.length, { timeout: 3000 }).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await daemon.request('POST', `/api/servers/${STUBBORN}/reinstall`)).toMatchObject({
      status: 409,
      body: {
        error:
          'Cannot reinstall the server while another power action is being processed, please try again later.',
      },
    });
    // A negative wait becomes 30 s (not "no wait"): this start is still queued, then runs once kill frees the lock.
    expect((await power(STUBBORN, { action: 'start', wait_seconds: -5 })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(errors).toHaveLength(2);
    expect((await power(STUBBORN, { action: 'kill' })).status).toBe(202);
    await expect.poll(() => logs(STUBBORN).then((l) => l.filter((x) => x === 'stubborn up').length)).toBe(2);
    expect(errors).toHaveLength(2);
  });
});
