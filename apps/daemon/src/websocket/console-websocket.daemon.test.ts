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

/** The whole daemon (managed servers, node-token scope) with the plugins wired as main.ts does. */
const UUID = '3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b';
let panel: PanelStandIn;
let daemon: TestDaemon;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, demoConfiguration(UUID));
  // Tokens in these tests are signed in the boot second: count the boot a minute earlier.
  const plugins = consoleWebsocketPlugins({
    denylist: new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) }),
  });
  daemon = await startTestDaemon({ panel, plugins });
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await daemon.close();
  await panel.close();
});

async function connect(permissions: string[], jti = 'owner-jti') {
  const socket = await TestSocket.open(`${daemon.url.replace('http', 'ws')}/api/servers/${UUID}/ws`, {
    origin: panel.url,
  });
  sockets.push(socket);
  await socket.auth(await signTestToken({ server_uuid: UUID, permissions, jti }, { key: NODE_TOKEN }));
  return socket;
}

describe('console websocket in the daemon', () => {
  it('starts the demo server, echoes a command, replays logs and stops it', async () => {
    const owner = await connect(['*']);
    expect(owner.messages[1]).toEqual({ event: 'status', args: ['offline'] });
    const running = owner.next('status', (args) => args[0] === 'running', 15_000);
    owner.send('set state', ['start']);
    await running;
    owner.send('send command', ['say hello']);
    await owner.next('console output', (args) => args[0] === '[Server] hello');

    const late = await connect(['websocket.connect'], 'viewer-jti');
    const from = late.messages.length;
    late.send('send logs');
    await late.next('console output', (args) => args[0] === '[Server] hello');
    expect(late.messages.slice(from).some((m) => m.args?.[0]?.includes('Server started on'))).toBe(true);

    const offline = owner.next('status', (args) => args[0] === 'offline', 15_000);
    owner.send('set state', ['stop']);
    await offline;
  }, 40_000);

  it('takes /ws/deny only with the node token, for known servers, and it cuts open sockets off', async () => {
    const viewer = await connect(['websocket.connect'], 'denied-jti');
    const body = { jtis: ['denied-jti'] };
    const route = `/api/servers/${UUID}/ws/deny`;
    expect((await daemon.request('POST', route, { body, token: null })).status).toBe(401);
    expect(
      (await daemon.request('POST', '/api/servers/00000000-0000-4000-8000-00000000abcd/ws/deny', { body }))
        .status,
    ).toBe(404);
    expect((await daemon.request('POST', route, { body })).status).toBe(204);
    // Told why and closed before the panel heard 204, without sending anything first.
    expect(await viewer.closed).toEqual({ code: 1008, reason: 'token revoked' });
    expect(viewer.messages.at(-1)).toEqual({
      event: 'jwt error',
      args: ['jwt: created too far in past (denylist)'],
    });
  });

  it("refuses an Origin that is neither the panel's nor an allowed one", async () => {
    const url = `${daemon.url.replace('http', 'ws')}/api/servers/${UUID}/ws`;
    await expect(TestSocket.open(url, { origin: 'https://evil.example.com' })).rejects.toMatchObject({
      status: 403,
    });
    sockets.push(await TestSocket.open(url, { origin: 'https://extra.example.com' }));
  });

  it('closes the sockets of a server deleted through the API with 1001', async () => {
    const owner = await connect(['*'], 'deleted-owner');
    expect((await daemon.request('DELETE', `/api/servers/${UUID}`)).status).toBe(204);
    expect(await owner.closed).toEqual({ code: 1001, reason: 'server deleted' });
    expect(owner.messages.at(-1)).toEqual({ event: 'deleted', args: ['null'] });
  });
});
