import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  COUNTING_GAME,
  type DaemonProcess,
  startDaemonProcess,
  testDaemonEnv,
} from '@aerie/daemon/testing/daemon-process';
import {
  demoConfiguration,
  PANEL_TOKEN,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithEngine,
  ENGINE_ADDRESS,
  ensureTestImages,
  findEngine,
  freePort,
  TEST_IMAGE,
} from './docker-test-engine';

const docker = await findEngine();
const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };
const UUID = '0d0c4e70-7a55-4f00-8000-00000000d0c4';

/** A server that ran on a process-runtime node moves to a Docker node and runs there, in its container. */
describeWithEngine('A transfer from a process node to a Docker node (real engine)', docker, () => {
  let panel: PanelStandIn;
  let dockerData: string;
  let source: TestDaemon | undefined;
  let target: DaemonProcess | undefined;

  beforeAll(async () => {
    if (docker) await ensureTestImages(docker);
    panel = await startPanelStandIn();
    dockerData = await mkdtemp(path.join(tmpdir(), 'aerie-docker-transfer-'));
  }, 120_000);
  afterAll(async () => {
    target?.process.kill('SIGKILL');
    await source?.close();
    await docker
      ?.getContainer(UUID)
      .remove({ force: true })
      .catch(() => {});
    await panel?.close();
    await rm(dockerData, { recursive: true, force: true });
  }, 30_000);

  it('arrives with its files owned for the container, and starts there', { timeout: 120_000 }, async () => {
    if (!docker) throw new Error('no engine');
    // The Docker node boots before the panel has the server: only the process node has it.
    target = startDaemonProcess(
      testDaemonEnv(panel.url, dockerData, { RUNTIME: 'docker', DOCKER_HOST: ENGINE_ADDRESS }),
    );
    const targetUrl = await target.listening();
    const port = await freePort();
    const configuration = demoConfiguration(UUID, { invocation: 'node game.cjs', done: ['ready'] });
    configuration.settings.container.image = TEST_IMAGE;
    configuration.settings.allocations = {
      ...configuration.settings.allocations,
      default: { ip: '127.0.0.1', port },
      mappings: { '127.0.0.1': [port] },
    };
    panel.servers.set(UUID, configuration);
    source = await startTestDaemon({ panel });
    const server = source.manager.get(UUID);
    if (!server) throw new Error('the process node has no server');
    await writeFile(path.join(server.directory, 'game.cjs'), COUNTING_GAME);
    await server.power('start');
    await expect.poll(() => server.state, { timeout: 20_000 }).toBe('running');

    const now = Math.floor(Date.now() / 1000);
    const token = await signTestToken(
      { sub: UUID, server_uuid: UUID, purpose: 'transfer', iat: now, nbf: now, exp: now + 900 },
      { key: NODE_TOKEN },
    );
    const started = await source.request('POST', `/api/servers/${UUID}/transfer`, {
      body: { url: `${targetUrl}/api/transfers`, token: `Bearer ${token}`, server: { uuid: UUID } },
    });
    expect(started.status).toBe(202);
    expect((await panel.waitForTransferReport(UUID, 60_000)).outcome).toBe('success');
    expect(await readFile(path.join(dockerData, 'volumes', UUID, 'game.cjs'), 'utf8')).toBe(COUNTING_GAME);

    const power = await fetch(`${targetUrl}/api/servers/${UUID}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'start' }),
    });
    expect(power.status).toBe(202);
    const state = async () =>
      ((await (await fetch(`${targetUrl}/api/servers/${UUID}`, { headers })).json()) as { state: string })
        .state;
    await expect.poll(state, { timeout: 60_000 }).toBe('running');
    expect((await docker.getContainer(UUID).inspect()).State.Running).toBe(true);
    await fetch(`${targetUrl}/api/servers/${UUID}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'kill' }),
    });
  });
});
