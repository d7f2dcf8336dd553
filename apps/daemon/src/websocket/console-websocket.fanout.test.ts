import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  demoConfiguration,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleWebsocketPlugins } from './daemon-plugins';
import { TestSocket } from './testing/test-socket';

/** Many sockets on one server of a real daemon: the server keeps one listener per event, whatever their number. */
const UUID = '5f4e3d2c-1b0a-4f9e-8d7c-6b5a4f3e2d1c';
const SOCKETS = 50;
const LINES = 20;
let panel: PanelStandIn;
let daemon: TestDaemon;
const sockets: TestSocket[] = [];
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  process.on('warning', onWarning);
  panel = await startPanelStandIn();
  panel.servers.set(UUID, demoConfiguration(UUID));
  const many = SOCKETS + 10;
  const plugins = consoleWebsocketPlugins({
    // Tokens in these tests are signed in the boot second: count the boot a minute earlier.
    denylist: new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) }),
    limits: {
      maxSocketsPerServer: many,
      maxSocketsPerIp: many,
      maxSocketsPerUser: many,
      maxPendingPerIp: many,
      messagesPerSecond: 1000,
      messageBurst: 1000,
    },
  });
  daemon = await startTestDaemon({ panel, plugins });
});
afterAll(async () => {
  process.off('warning', onWarning);
  for (const socket of sockets) socket.ws.terminate();
  await daemon.close();
  await panel.close();
});

async function connect(index: number): Promise<TestSocket> {
  const socket = await TestSocket.open(`${daemon.url.replace('http', 'ws')}/api/servers/${UUID}/ws`, {
    origin: panel.url,
  });
  sockets.push(socket);
  await socket.auth(
    await signTestToken(
      { server_uuid: UUID, permissions: ['*'], jti: `fanout-${index}` },
      { key: NODE_TOKEN },
    ),
  );
  return socket;
}

describe('console websocket fan-out', () => {
  it(`gives every line to ${SOCKETS} sockets of one server with one listener on it and no warning`, async () => {
    const watchers = await Promise.all(Array.from({ length: SOCKETS }, (_, index) => connect(index)));
    const server = daemon.manager.get(UUID);
    if (!server) throw new Error('the server was not loaded');
    // Node warns on the next tick after the eleventh listener of an event.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    // The hub's, and the manager's own for `status`.
    expect(server.listenerCount('console output')).toBe(1);
    expect(server.listenerCount('status')).toBeLessThanOrEqual(2);

    const owner = watchers[0] as TestSocket;
    const running = owner.next('status', (args) => args[0] === 'running', 15_000);
    owner.send('set state', ['start']);
    await running;
    const from = watchers.map((socket) => socket.messages.length);
    for (let line = 0; line < LINES; line += 1) owner.send('send command', [`say line ${line}`]);
    const last = `[Server] line ${LINES - 1}`;
    await Promise.all(
      watchers.map((socket) => socket.next('console output', (args) => args[0] === last, 10_000)),
    );
    const expected = Array.from({ length: LINES }, (_, line) => `[Server] line ${line}`);
    watchers.forEach((socket, index) => {
      const lines = socket.messages
        .slice(from[index])
        .filter(
          (message) => message.event === 'console output' && message.args?.[0]?.startsWith('[Server] line'),
        )
        .map((message) => message.args?.[0]);
      expect(lines).toEqual(expected);
    });

    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);

    // The last socket gone, the hub's listener goes too.
    for (const socket of watchers) socket.close();
    await Promise.all(watchers.map((socket) => socket.closed));
    await expect.poll(() => server.listenerCount('console output')).toBe(0);
  }, 40_000);
});
