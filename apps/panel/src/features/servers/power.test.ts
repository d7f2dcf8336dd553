import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { type DaemonAnswer, startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { addSubuser, createTestNode, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  type Scenario,
  serverScenario,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let s: Scenario;
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
let token: string;
let stopper: Actor;
let restarter: Actor;
const answers = new Map<string, DaemonAnswer>();

const power = (actor: Actor, body: unknown, server = s.server.uuid_short) =>
  actor.browser.post(`/api/client/servers/${server}/power`, body as Record<string, unknown>);
const callsTo = (uuid: string) => daemon.calls.filter((call) => call.url.startsWith(`/api/servers/${uuid}/`));

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['control.start', 'control.console']);
  token = t.ctx.secretBox.open(s.node.daemon_token);
  daemon = await startDaemonStandIn({
    token,
    answer: (call) => answers.get(/^\/api\/servers\/([^/]+)/.exec(call.url)?.[1] ?? '') ?? { status: 202 },
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', s.node.id)
    .execute();
  stopper = await signedIn(t);
  await addSubuser(t.ctx, s.server, stopper.user, ['control.stop']);
  restarter = await signedIn(t);
  await addSubuser(t.ctx, s.server, restarter.user, ['control.restart']);
});
afterAll(async () => {
  await t.close();
  await daemon.close();
});

describe('POST /api/client/servers/{server}/power', () => {
  it.each(['start', 'stop', 'restart', 'kill'])(
    'sends the owner\'s "%s" to the daemon as Wings\' power action, with the node token alone (204)',
    async (signal) => {
      const before = daemon.calls.length;
      const response = await power(s.owner, { signal });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(daemon.calls.slice(before)).toHaveLength(1);
      const call = daemon.calls.at(-1);
      expect(call).toMatchObject({
        method: 'POST',
        url: `/api/servers/${s.server.uuid}/power`,
        body: { action: signal },
      });
      expect(call?.headers.authorization).toBe(`Bearer ${token}`);
      expect(call?.headers['content-type']).toBe('application/json');
    },
  );

  it('trims the signal', async () => {
    expect((await power(s.owner, { signal: '  restart ' })).statusCode).toBe(204);
    expect(daemon.calls.at(-1)?.body).toEqual({ action: 'restart' });
  });

  it('maps each signal to its permission for subusers: start, stop (and kill), restart', async () => {
    const matrix: [Actor, string, number][] = [
      [s.subuser, 'start', 204],
      [s.subuser, 'stop', 403],
      [s.subuser, 'kill', 403],
      [s.subuser, 'restart', 403],
      [stopper, 'stop', 204],
      [stopper, 'kill', 204],
      [stopper, 'start', 403],
      [stopper, 'restart', 403],
      [restarter, 'restart', 204],
      [restarter, 'start', 403],
      [s.limited, 'start', 403],
      [s.admin, 'kill', 204],
    ];
    for (const [actor, signal, status] of matrix) {
      const before = daemon.calls.length;
      const response = await power(actor, { signal });
      expect(response.statusCode, `${actor.user.username} ${signal}`).toBe(status);
      expect(daemon.calls.length).toBe(before + (status === 204 ? 1 : 0));
      if (status === 403) {
        expect(response.json()).toEqual({
          errors: [
            { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
          ],
        });
      }
    }
  });

  it('refuses an unknown or missing signal with 403 to a subuser, whatever it holds', async () => {
    for (const actor of [s.subuser, stopper, restarter, s.limited]) {
      for (const body of [{ signal: 'dance' }, {}, { signal: 5 }]) {
        expect((await power(actor, body)).statusCode).toBe(403);
      }
    }
  });

  it.each([
    [{ signal: 'dance' }, 'The selected signal is invalid.', 'in'],
    [{ signal: 'START' }, 'The selected signal is invalid.', 'in'],
    [{}, 'The signal field is required.', 'required'],
    [{ signal: '   ' }, 'The signal field is required.', 'required'],
    [{ signal: 5 }, 'The signal must be a string.', 'string'],
  ])('answers the owner and a root admin 422 for %o', async (body, detail, rule) => {
    const before = daemon.calls.length;
    for (const actor of [s.owner, s.admin]) {
      const response = await power(actor, body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        errors: [
          { code: 'ValidationException', status: '422', detail, meta: { source_field: 'signal', rule } },
        ],
      });
    }
    expect(daemon.calls.length).toBe(before);
  });

  it('answers 404 to a stranger, without asking the daemon', async () => {
    const before = daemon.calls.length;
    const response = await power(s.stranger, { signal: 'start' });
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].detail).toBe('The requested resource does not exist on this server.');
    expect(daemon.calls.length).toBe(before);
  });

  it.each(conflictStates)('answers 409 in state %o, to the owner and root admins alike', (state, detail) =>
    expectConflictForEach(t, s, [state, detail], [s.owner, s.admin, s.subuser], (actor) =>
      power(actor, { signal: 'start' }),
    ),
  );

  it("relays the daemon's refusal with its status, and 502 when it cannot be reached", async () => {
    const server = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    answers.set(server.uuid, {
      status: 409,
      body: {
        error: 'another power action is currently being processed for this server, please try again later',
      },
    });
    const busy = await power(s.owner, { signal: 'stop' }, server.uuid_short);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '409',
      detail:
        'An error occurred on the remote host: another power action is currently being processed for this server, please try again later.',
    });
    answers.set(server.uuid, { status: 500, body: { error: 'disk on fire' } });
    expect((await power(s.owner, { signal: 'start' }, server.uuid_short)).statusCode).toBe(500);
    answers.set(server.uuid, 'hang-up');
    const hungUp = await power(s.owner, { signal: 'start' }, server.uuid_short);
    expect(hungUp.statusCode).toBe(502);
    expect(callsTo(server.uuid)).toHaveLength(3);

    const down = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const offline = await createTestServer(t.ctx, { owner: s.owner.user, node: down, eggId: s.egg.id });
    const unreachable = await power(s.owner, { signal: 'start' }, offline.uuid_short);
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json()).toEqual({
      errors: [
        {
          code: 'DaemonConnectionException',
          status: '502',
          detail: 'Could not establish a connection to the machine running this server. Please try again.',
        },
      ],
    });
  });

  it('is refused by the daemon (403 relayed) when the node token does not match', async () => {
    const node = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: daemon.port });
    const server = await createTestServer(t.ctx, { owner: s.owner.user, node, eggId: s.egg.id });
    const response = await power(s.owner, { signal: 'start' }, server.uuid_short);
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].code).toBe('DaemonConnectionException');
    expect(daemon.calls.at(-1)?.headers.authorization).toBe(
      `Bearer ${t.ctx.secretBox.open(node.daemon_token)}`,
    );
  });
});
