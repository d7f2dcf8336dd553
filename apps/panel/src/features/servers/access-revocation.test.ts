import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { daemonJti } from '@aerie/panel/features/console/daemon-jwt';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { type DaemonAnswer, type DaemonCall, startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

type StandIn = Awaited<ReturnType<typeof startDaemonStandIn>>;

let t: TestApp;
/** Two nodes whose daemons are stand-ins on real sockets, and a third that nothing answers. */
let nodes: { row: NodeRow; daemon: StandIn }[];
let down: NodeRow;
let answer: ((call: DaemonCall) => DaemonAnswer | undefined) | undefined;

/** A node pointing at a stand-in that checks the node's own token. */
async function nodeWithDaemon(): Promise<{ row: NodeRow; daemon: StandIn }> {
  const created = await createTestNode(t.ctx, { fqdn: '127.0.0.1' });
  const daemon = await startDaemonStandIn({
    token: t.ctx.secretBox.open(created.daemon_token),
    answer: (call) => answer?.(call),
  });
  await t.db.updateTable('nodes').set({ daemon_listen: daemon.port }).where('id', '=', created.id).execute();
  return { row: { ...created, daemon_listen: daemon.port }, daemon };
}

beforeAll(async () => {
  t = await buildTestApp();
  nodes = [await nodeWithDaemon(), await nodeWithDaemon()];
  down = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
});
afterAll(async () => {
  await t.close();
  await Promise.all(nodes.map(({ daemon }) => daemon.close()));
});
beforeEach(() => {
  answer = undefined;
  for (const { daemon } of nodes) daemon.calls.length = 0;
});

/** What each stand-in was asked to deny. */
const denials = () =>
  nodes.map(({ daemon }) =>
    daemon.calls.map((call) => ({ method: call.method, path: call.path, body: call.body })),
  );

/** Each call reached its daemon with that node's own token. */
function expectNodeTokens() {
  for (const { row, daemon } of nodes) {
    for (const call of daemon.calls) {
      expect(call.headers.authorization).toBe(`Bearer ${t.ctx.secretBox.open(row.daemon_token)}`);
    }
  }
}

async function signedIn() {
  const { user, password } = await createTestUser(t.ctx);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, password, browser };
}

const changePassword = (browser: TestBrowser, current: string) =>
  browser.send('PUT', '/api/client/account/password', {
    current_password: current,
    password: 'a brand new password',
    password_confirmation: 'a brand new password',
  });

describe('a password change ends live access on every node', () => {
  it("tells each node's daemon to deny the user (POST /api/deny), and still answers 204 with one node down", async () => {
    const { user, password, browser } = await signedIn();
    const response = await changePassword(browser, password);
    expect(response.statusCode).toBe(204);
    const denied = { method: 'POST', path: '/api/deny', body: { user_uuids: [user.uuid] } };
    expect(denials()).toEqual([[denied], [denied]]);
    expectNodeTokens();
  });

  it('still changes the password when a daemon refuses or fails', async () => {
    answer = () => ({ status: 500, body: { error: 'boom' } });
    const { user, password, browser } = await signedIn();
    expect((await changePassword(browser, password)).statusCode).toBe(204);
    expect(denials().map((calls) => calls.length)).toEqual([1, 1]);
    const again = await new TestBrowser(t.app).post('/auth/login', {
      user: user.username,
      password: 'a brand new password',
    });
    expect(again.statusCode).toBe(200);
  });

  it('does not tell anyone when the current password is wrong', async () => {
    const { browser } = await signedIn();
    expect((await changePassword(browser, 'not it')).statusCode).toBe(400);
    expect(denials()).toEqual([[], []]);
  });
});

describe('a password reset ends live access on every node', () => {
  const outbox = () => join(t.dataDir, 'mail');

  async function mailedResetLink(email: string): Promise<{ token: string; email: string }> {
    rmSync(outbox(), { recursive: true, force: true });
    await new TestBrowser(t.app, '10.40.0.1').post('/auth/password', { email });
    await t.ctx.mailer.drain();
    const mail = existsSync(outbox())
      ? readdirSync(outbox())
          .map((name) =>
            readFileSync(join(outbox(), name), 'utf8')
              .replace(/=\r?\n/g, '')
              .replace(/=3D/g, '='),
          )
          .join('\n')
      : '';
    const link = /\/auth\/password\/reset\/([0-9a-f]{64})\?email=([^\s"<>]+)/.exec(mail);
    if (!link) throw new Error(`no reset link in:\n${mail}`);
    return { token: link[1] as string, email: decodeURIComponent(link[2] as string) };
  }

  it('denies the user on each node after the reset, which succeeds with a node down', async () => {
    const { user } = await createTestUser(t.ctx);
    const { token, email } = await mailedResetLink(user.email);
    const browser = new TestBrowser(t.app, '10.40.0.2');
    await browser.open(`/auth/password/reset/${token}?email=${encodeURIComponent(email)}`);
    const response = await browser.post('/auth/password/reset', {
      email,
      token,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true });
    const denied = { method: 'POST', path: '/api/deny', body: { user_uuids: [user.uuid] } };
    expect(denials()).toEqual([[denied], [denied]]);
  });

  it('tells nobody about a refused reset', async () => {
    const { user } = await createTestUser(t.ctx);
    const response = await new TestBrowser(t.app, '10.40.0.3').post('/auth/password/reset', {
      email: user.email,
      token: 'f'.repeat(64),
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(response.statusCode).toBe(400);
    expect(denials()).toEqual([[], []]);
  });
});

describe('revokeUserOnServer (for subuser removal and narrowed permissions)', () => {
  it("denies the user's tokens for that one server on its node, by user and by Wings' jti", async () => {
    const { user } = await createTestUser(t.ctx);
    const egg = await importDemoEgg(t.ctx, 'Revocation nest');
    const target = nodes[1] as (typeof nodes)[number];
    const server = await createTestServer(t.ctx, { owner: user, node: target.row, eggId: egg.id });
    const told = await t.ctx.revocation.revokeUserOnServer({
      server: { uuid: server.uuid, nodeId: server.node_id },
      user: { id: user.id, uuid: user.uuid },
    });
    expect(told).toBe(true);
    expect(denials()).toEqual([
      [],
      [
        {
          method: 'POST',
          path: `/api/servers/${server.uuid}/ws/deny`,
          body: { jtis: [daemonJti(user.id, server.uuid)], user_uuids: [user.uuid] },
        },
      ],
    ]);
  });

  it('never throws when the node is down, and says it was not told', async () => {
    const { user } = await createTestUser(t.ctx);
    await expect(
      t.ctx.revocation.revokeUserOnServer({
        server: { uuid: '00000000-0000-4000-8000-000000000001', nodeId: down.id },
        user: { id: user.id, uuid: user.uuid },
      }),
    ).resolves.toBe(false);
  });
});
