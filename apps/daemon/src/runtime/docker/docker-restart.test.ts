import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
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
import { sleep, TestSocket } from '@aerie/daemon/websocket/testing/test-socket';
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

/** The real `aerie daemon` with RUNTIME=docker, killed outright while its container runs. */
describeWithEngine('A daemon restart on the Docker runtime (real engine)', docker, () => {
  let panel: PanelStandIn;
  let dataDirectory: string;
  const uuid = randomUUID();
  const daemons: DaemonProcess[] = [];

  beforeAll(async () => {
    if (docker) await ensureTestImages(docker);
    panel = await startPanelStandIn();
    dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-docker-restart-'));
  }, 120_000);
  afterAll(async () => {
    for (const daemon of daemons) daemon.process.kill('SIGKILL');
    await docker
      ?.getContainer(uuid)
      .remove({ force: true })
      .catch(() => {});
    await panel?.close();
    await rm(dataDirectory, { recursive: true, force: true });
  }, 30_000);

  const daemon = () => {
    const started = startDaemonProcess(
      testDaemonEnv(panel.url, dataDirectory, { RUNTIME: 'docker', DOCKER_HOST: ENGINE_ADDRESS }),
    );
    daemons.push(started);
    return started;
  };
  const state = async (url: string) =>
    ((await (await fetch(`${url}/api/servers/${uuid}`, { headers })).json()) as { state: string }).state;
  const power = async (url: string, action: string) => {
    const response = await fetch(`${url}/api/servers/${uuid}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action }),
    });
    expect(response.status).toBe(202);
  };

  it('kill -9 of the daemon: the container keeps running, the next daemon re-attaches to it, Stop stops it', {
    timeout: 120_000,
  }, async () => {
    if (!docker) throw new Error('no engine');
    const port = await freePort();
    const configuration = demoConfiguration(uuid, { invocation: 'node game.cjs', done: ['ready'] });
    configuration.settings.container.image = TEST_IMAGE;
    configuration.settings.allocations = {
      ...configuration.settings.allocations,
      default: { ip: '127.0.0.1', port },
      mappings: { '127.0.0.1': [port] },
    };
    panel.servers.set(uuid, configuration);
    const first = daemon();
    let url = await first.listening();
    await writeFile(path.join(dataDirectory, 'volumes', uuid, 'game.cjs'), COUNTING_GAME);
    await power(url, 'start');
    await expect.poll(() => state(url), { timeout: 60_000 }).toBe('running');
    const before = await docker.getContainer(uuid).inspect();

    first.process.kill('SIGKILL');
    await first.exited;
    await sleep(800);
    expect((await docker.getContainer(uuid).inspect()).State.Running).toBe(true);

    const second = daemon();
    url = await second.listening();
    expect(await state(url)).toBe('running');
    // The same container, never recreated or restarted.
    const after = await docker.getContainer(uuid).inspect();
    expect(after.Id).toBe(before.Id);
    expect(after.State.StartedAt).toBe(before.State.StartedAt);

    await sleep(1100);
    const socket = await TestSocket.open(`${url.replace('http', 'ws')}/api/servers/${uuid}/ws`, {
      origin: panel.url,
    });
    await socket.auth(await signTestToken({ server_uuid: uuid }, { key: PANEL_TOKEN }));
    socket.send('send logs');
    await socket.next('console output', ([line]) => line?.startsWith('tick ') === true);
    await sleep(300);
    // The container's last lines, those printed while no daemon listened among them, then live ones, in order.
    const received = socket.messages
      .filter((m) => m.event === 'console output' && m.args?.[0]?.startsWith('tick '))
      .map((m) => Number(m.args?.[0]?.slice(5)));
    // A live line may arrive between the auth and the history asked for with `send logs` (as on Wings); what
    // counts is the history and the live lines after it.
    const replayStart = received.findIndex(
      (tick, index) => index > 0 && tick <= (received[index - 1] as number),
    );
    const ticks = replayStart === -1 ? received : received.slice(replayStart);
    expect(ticks.length).toBeGreaterThan(10);
    expect(ticks).toEqual(ticks.map((_, index) => (ticks[0] as number) + index));
    socket.send('send command', ['hello']);
    await socket.next('console output', ([line]) => line === 'heard hello');

    await power(url, 'stop');
    await expect.poll(() => state(url), { timeout: 30_000 }).toBe('offline');
    expect((await docker.getContainer(uuid).inspect()).State.Running).toBe(false);
    socket.close();
  });
});
