import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { type DaemonAnswer, startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestNode, createTestServer } from '@aerie/panel/test/server-factories';
import { type Actor, type Scenario, serverScenario, setServerState } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let s: Scenario;
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
let token: string;
const answers = new Map<string, DaemonAnswer>();

const command = (actor: Actor, body: unknown, server = s.server.uuid_short) =>
  actor.browser.post(`/api/client/servers/${server}/command`, body as Record<string, unknown>);

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['control.console']);
  token = t.ctx.secretBox.open(s.node.daemon_token);
  daemon = await startDaemonStandIn({
    token,
    answer: (call) => answers.get(/^\/api\/servers\/([^/]+)/.exec(call.url)?.[1] ?? ''),
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', s.node.id)
    .execute();
});
afterAll(async () => {
  await t.close();
  await daemon.close();
});

describe('POST /api/client/servers/{server}/command', () => {
  it("writes the command through the daemon's commands route, with the node token alone (204)", async () => {
    const response = await command(s.owner, { command: 'say hello' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const call = daemon.calls.at(-1);
    expect(call).toMatchObject({
      method: 'POST',
      url: `/api/servers/${s.server.uuid}/commands`,
      body: { commands: ['say hello'] },
    });
    expect(call?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('trims the command like Laravel does', async () => {
    expect((await command(s.owner, { command: '  list  ' })).statusCode).toBe(204);
    expect(daemon.calls.at(-1)?.body).toEqual({ commands: ['list'] });
  });

  it('needs control.console: a subuser with it and root admins may, others get 403, strangers 404', async () => {
    for (const [actor, status] of [
      [s.subuser, 204],
      [s.admin, 204],
      [s.limited, 403],
      [s.stranger, 404],
    ] as const) {
      const before = daemon.calls.length;
      const response = await command(actor, { command: 'version' });
      expect(response.statusCode).toBe(status);
      expect(daemon.calls.length).toBe(before + (status === 204 ? 1 : 0));
    }
    expect((await command(s.limited, { command: 'version' })).json().errors[0]).toEqual({
      code: 'AccessDeniedHttpException',
      status: '403',
      detail: 'This action is unauthorized.',
    });
    // The permission is checked before the body: a subuser without it learns nothing about validation.
    expect((await command(s.limited, {})).statusCode).toBe(403);
  });

  it.each([
    [{}, 'The command field is required.', 'required'],
    [{ command: '' }, 'The command field is required.', 'required'],
    [{ command: '   ' }, 'The command field is required.', 'required'],
    [{ command: 42 }, 'The command must be a string.', 'string'],
    [{ command: ['say', 'hi'] }, 'The command must be a string.', 'string'],
  ])('answers 422 for %o', async (body, detail, rule) => {
    const before = daemon.calls.length;
    const response = await command(s.owner, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      errors: [
        { code: 'ValidationException', status: '422', detail, meta: { source_field: 'command', rule } },
      ],
    });
    expect(daemon.calls.length).toBe(before);
  });

  it.each([
    [
      { status: 'installing' },
      'This server has not yet completed its installation process, please try again later.',
    ],
    [
      { maintenance: true },
      'The node of this server is currently under maintenance and the functionality requested is unavailable.',
    ],
  ])('answers 409 in state %o', async (state, detail) => {
    await setServerState(t, s.server, s.node, state);
    try {
      for (const actor of [s.owner, s.admin]) {
        const response = await command(actor, { command: 'list' });
        expect(response.statusCode).toBe(409);
        expect(response.json().errors[0].detail).toBe(detail);
      }
    } finally {
      await setServerState(t, s.server, s.node, {});
    }
  });

  it.each([
    [{ status: 502, body: { error: 'Server must be online in order to send commands.' } }],
    [{ status: 400, body: { error: 'The server is not running.' } }],
  ] as [DaemonAnswer][])('says the server must be online when the daemon answers %o', async (answer) => {
    const server = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    answers.set(server.uuid, answer);
    const response = await command(s.owner, { command: 'list' }, server.uuid_short);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      errors: [
        { code: 'HttpException', status: '502', detail: 'Server must be online in order to send commands.' },
      ],
    });
  });

  it("relays other daemon errors, and 502 DaemonConnectionException when it can't be reached", async () => {
    const server = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    answers.set(server.uuid, {
      status: 404,
      body: { error: 'The requested resource does not exist on this instance.' },
    });
    const unknown = await command(s.owner, { command: 'list' }, server.uuid_short);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '404',
      detail: 'An error occurred on the remote host: The requested resource does not exist on this instance.',
    });

    const down = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const offline = await createTestServer(t.ctx, { owner: s.owner.user, node: down, eggId: s.egg.id });
    const unreachable = await command(s.owner, { command: 'list' }, offline.uuid_short);
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '502',
      detail: 'Could not establish a connection to the machine running this server. Please try again.',
    });
  });
});
