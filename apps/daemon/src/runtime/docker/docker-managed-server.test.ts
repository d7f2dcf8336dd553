import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import type { ServerState, ServerStats } from '@aerie/daemon/server/console-server';
import { ServerManager } from '@aerie/daemon/server/server-manager';
import {
  demoConfiguration,
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DockerDriver } from './docker-driver';
import {
  describeWithEngine,
  ensureTestImages,
  findEngine,
  freePort,
  removeLabelled,
} from './docker-test-engine';

const docker = await findEngine();
const RUN_LABEL = 'aerie.test-run';
const runId = randomUUID();

/** The whole daemon path with RUNTIME=docker: the panel's create → install container → server container. */
describeWithEngine('A managed server on the Docker runtime (real engine)', docker, () => {
  let panel: PanelStandIn;
  let manager: ServerManager;
  let dataDirectory: string;

  beforeAll(async () => {
    if (docker) await ensureTestImages(docker);
    panel = await startPanelStandIn();
    dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-docker-daemon-'));
    manager = new ServerManager({
      dataDirectory,
      driver: new DockerDriver({
        docker,
        labels: { [RUN_LABEL]: runId },
        tmpDirectory: path.join(dataDirectory, 'tmp'),
      }),
      panel: new PanelClient({
        url: panel.url,
        tokenId: PANEL_TOKEN_ID,
        token: PANEL_TOKEN,
        retryForMs: 2000,
      }),
      serverOptions: { crashTimeoutMs: 60_000, stopTimeoutMs: 10_000, statsIntervalMs: 500 },
      statesDebounceMs: 50,
    });
    await manager.boot();
  }, 120_000);
  afterAll(async () => {
    await manager?.shutdown();
    await panel?.close();
    if (docker) await removeLabelled(docker, RUN_LABEL, runId);
    await rm(dataDirectory, { recursive: true, force: true });
  }, 30_000);

  it('installs with the demo egg in a container, starts, takes commands, reports stats, stops and is deleted', async () => {
    if (!docker) throw new Error('no engine');
    const uuid = randomUUID();
    const port = await freePort();
    const configuration = demoConfiguration(uuid, { invocation: 'node demo-server.mjs', memoryMb: 200 });
    configuration.settings.container.image = 'node:20-bookworm-slim';
    configuration.settings.allocations = {
      ...configuration.settings.allocations,
      default: { ip: '127.0.0.1', port },
      mappings: { '127.0.0.1': [port] },
    };
    panel.servers.set(uuid, configuration);

    const server = await manager.create(uuid, true);
    const installOutput: string[] = [];
    const consoleLines: string[] = [];
    server.on('install output', (line) => installOutput.push(line));
    server.on('console output', (line) => consoleLines.push(line));
    await waitForEvent(server, 'status', (state: ServerState) => state === 'running', 60_000);
    expect(panel.installReports).toEqual([{ uuid, body: { successful: true, reinstall: false } }]);
    expect(installOutput).toContain('Writing demo-server.mjs...');
    expect(await readFile(path.join(dataDirectory, 'volumes', uuid, 'demo-server.mjs'), 'utf8')).toContain(
      'Aerie Demo',
    );
    expect(consoleLines).toContain(`Server started on 0.0.0.0:${port} — type "help" for commands`);

    const [stats] = await waitForEvent<[ServerStats]>(server, 'stats', (s) => s.memory_bytes > 0, 10_000);
    expect(stats.state).toBe('running');
    // 200 MB as Wings counts it (×1,000,000); the kernel keeps whole pages of it.
    expect(stats.memory_limit_bytes).toBeLessThanOrEqual(200_000_000);
    expect(stats.memory_limit_bytes).toBeGreaterThan(200_000_000 - 4096 * 16);
    expect(stats.uptime).toBeGreaterThanOrEqual(0);

    const said = waitForEvent(server, 'console output', (line: string) => line === '[Server] hi there');
    server.sendCommand('say hi there');
    await said;

    const offline = waitForEvent(server, 'status', (state: ServerState) => state === 'offline', 20_000);
    await server.power('stop');
    await offline;
    expect(consoleLines.at(-1)).toBe('Server stopped.');
    expect((await docker.getContainer(uuid).inspect()).State.ExitCode).toBe(0);

    await manager.delete(uuid);
    await expect(docker.getContainer(uuid).inspect()).rejects.toMatchObject({ statusCode: 404 });
  }, 120_000);
});
