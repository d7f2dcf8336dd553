import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerState } from '@aerie/daemon/server/console-server';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  demoConfiguration,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { isAlive, nodeStartup, waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIRST = 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a';
const SECOND = 'e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b';
let panel: PanelStandIn;
let daemon: TestDaemon;

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(FIRST, demoConfiguration(FIRST, { memoryMb: 128 }));
  panel.servers.set(
    SECOND,
    demoConfiguration(SECOND, { invocation: nodeStartup('game.cjs'), done: ['ready'] }),
  );
  daemon = await startTestDaemon({ panel });
  await writeFile(
    path.join(daemon.dataDirectory, 'volumes', SECOND, 'game.cjs'),
    'console.log("pid " + process.pid); console.log("ready"); process.stdin.resume();',
  );
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

const serverOf = (uuid: string) => {
  const server = daemon.manager.get(uuid);
  if (!server) throw new Error(`${uuid} missing`);
  return server;
};
const start = async (uuid: string) => {
  const running = waitForEvent(serverOf(uuid), 'status', (s: ServerState) => s === 'running', 10_000);
  expect(
    (await daemon.request('POST', `/api/servers/${uuid}/power`, { body: { action: 'start' } })).status,
  ).toBe(202);
  await running;
};

describe('server routes', () => {
  it('lists every server with its state, suspension, utilization and configuration', async () => {
    const response = await daemon.request('GET', '/api/servers');
    expect(response.status).toBe(200);
    const list = response.body as {
      state: string;
      configuration: { uuid: string; build: { memory_limit: number } };
    }[];
    expect(list.map((item) => item.configuration.uuid).sort()).toEqual([FIRST, SECOND]);
    expect(list.find((item) => item.configuration.uuid === FIRST)).toMatchObject({
      state: 'offline',
      is_suspended: false,
      utilization: { state: 'offline', memory_bytes: 0, network: { rx_bytes: 0, tx_bytes: 0 } },
      configuration: { build: { memory_limit: 128 } },
    });
  });

  it('syncs the configuration from the panel, and stops a server suspended while running', {
    timeout: 20_000,
  }, async () => {
    await start(FIRST);
    panel.servers.set(FIRST, demoConfiguration(FIRST, { memoryMb: 64, suspended: true }));
    expect((await daemon.request('POST', `/api/servers/${FIRST}/sync`)).status).toBe(204);
    expect(await daemon.request('GET', `/api/servers/${FIRST}`)).toMatchObject({
      body: { state: 'offline', is_suspended: true, configuration: { build: { memory_limit: 64 } } },
    });
    expect(
      await daemon.request('POST', `/api/servers/${FIRST}/power`, { body: { action: 'start' } }),
    ).toMatchObject({
      status: 400,
    });
    panel.servers.delete(FIRST);
    expect(await daemon.request('POST', `/api/servers/${FIRST}/sync`)).toMatchObject({ status: 404 });
  });

  it('deletes a running server: its process ends, its files go, and it is no longer listed', {
    timeout: 20_000,
  }, async () => {
    await start(SECOND);
    const server = serverOf(SECOND);
    const directory = path.join(daemon.dataDirectory, 'volumes', SECOND);
    const pid = Number(server.recentLogs()[0]?.split(' ')[1]);
    expect(isAlive(pid)).toBe(true);
    const states: ServerState[] = [];
    server.on('status', (state) => states.push(state));
    expect((await daemon.request('DELETE', `/api/servers/${SECOND}`)).status).toBe(204);
    expect(server.state).toBe('offline');
    expect(states.at(-1)).toBe('offline');
    await expect(stat(directory)).rejects.toThrow();
    const list = (await daemon.request('GET', '/api/servers')).body as { configuration: { uuid: string } }[];
    expect(list.map((item) => item.configuration.uuid)).not.toContain(SECOND);
    expect(isAlive(pid)).toBe(false);
  });
});
