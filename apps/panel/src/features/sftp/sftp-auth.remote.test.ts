import { signInLimits } from '@aerie/panel/features/auth/sign-in-throttle';
import { daemonJti } from '@aerie/panel/features/console/daemon-jwt';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import type { User } from '@aerie/panel/features/users/user';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  addSubuser,
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { conflictStates, setServerState } from '@aerie/panel/test/server-scenario';
import { ed25519KeyPair } from '@aerie/panel/test/ssh-key-pair';
import { rootAdminPermissions } from '@aerie/shared/permissions/permissions';
import { sftpAuthMessages } from '@aerie/shared/sftp/sftp-wire';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** POST /api/remote/sftp/auth: the panel's decision on each SFTP login a daemon asks about. */
let t: TestApp;
let node: NodeRow;
let otherNode: NodeRow;
let server: ServerRow;
let elsewhere: ServerRow;
type Person = { user: User; password: string };
let owner: Person;
let sftpSubuser: Person;
let plainSubuser: Person;
let stranger: Person;
let admin: Person;
let ipCounter = 0;

const bearer = (of: NodeRow) => `Bearer ${of.daemon_token_id}.${t.ctx.secretBox.open(of.daemon_token)}`;
/** A fresh client address per call unless given: the throttle counts per username and address. */
const auth = (body: Record<string, unknown>, of: NodeRow = node) =>
  t.app.inject({
    method: 'POST',
    url: '/api/remote/sftp/auth',
    headers: { authorization: bearer(of), accept: 'application/json' },
    payload: { ip: `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`, ...body },
  });
const login = (person: Person, target: ServerRow = server, password = person.password) =>
  auth({ type: 'password', username: `${person.user.username}.${target.uuid_short}`, password });

const invalid = {
  errors: [{ code: 'HttpForbiddenException', status: '403', detail: sftpAuthMessages.invalidCredentials }],
};

beforeAll(async () => {
  t = await buildTestApp();
  node = await createTestNode(t.ctx);
  otherNode = await createTestNode(t.ctx);
  const egg = await importDemoEgg(t.ctx);
  [owner, sftpSubuser, plainSubuser, stranger, admin] = await Promise.all([
    createTestUser(t.ctx),
    createTestUser(t.ctx),
    createTestUser(t.ctx),
    createTestUser(t.ctx),
    createTestUser(t.ctx, { rootAdmin: true }),
  ]);
  server = await createTestServer(t.ctx, { owner: owner.user, node, eggId: egg.id });
  elsewhere = await createTestServer(t.ctx, { owner: owner.user, node: otherNode, eggId: egg.id });
  await addSubuser(t.ctx, server, sftpSubuser.user, ['file.sftp', 'file.read']);
  await addSubuser(t.ctx, server, plainSubuser.user, ['file.read', 'file.update']);
});
afterAll(() => t.close());

/** The account's throttle answered: 429 with upstream's sentence and a Retry-After. */
function expectAccountThrottled(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(429);
  expect(response.json().errors[0]).toMatchObject({
    code: 'TooManyRequestsHttpException',
    detail: expect.stringMatching(
      /^Too many login attempts for this account, please try again in \d+ seconds\.$/,
    ),
  });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('POST /api/remote/sftp/auth', () => {
  it('lets the owner in by password, naming the server by identifier or uuid, in any case', async () => {
    const response = await login(owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: owner.user.uuid,
      server: server.uuid,
      permissions: ['*'],
      jti: daemonJti(owner.user.id, server.uuid),
    });
    const byUuid = await auth({
      username: `${owner.user.username.toUpperCase()}.${server.uuid}`,
      password: owner.password,
    });
    expect(byUuid.statusCode).toBe(200);
    expect(byUuid.json().server).toBe(server.uuid);
  });

  it('lets a root admin in with the admin permissions, and a subuser holding file.sftp with theirs', async () => {
    const asAdmin = await login(admin);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().permissions).toEqual([...rootAdminPermissions]);
    const asSubuser = await login(sftpSubuser);
    expect(asSubuser.statusCode).toBe(200);
    expect(asSubuser.json().permissions).toEqual(['file.sftp', 'file.read']);
  });

  it('refuses a subuser without file.sftp and a stranger, after their right password', async () => {
    for (const person of [plainSubuser, stranger]) {
      const response = await login(person);
      expect(response.statusCode).toBe(403);
      expect(response.json().errors[0].detail).toBe(sftpAuthMessages.noSftpPermission);
    }
  });

  it('answers a wrong password, an unknown user and a server of another node exactly alike', async () => {
    const answers = [
      await login(owner, server, 'wrong-password'),
      await auth({ username: `nobody.${server.uuid_short}`, password: owner.password }),
      await login(owner, elsewhere),
      await auth({ username: `${owner.user.username}.zzzzzzzz`, password: owner.password }),
    ];
    for (const response of answers) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(invalid);
    }
    // The other node may log into its own server.
    const right = await auth(
      { username: `${owner.user.username}.${elsewhere.uuid_short}`, password: owner.password },
      otherNode,
    );
    expect(right.statusCode).toBe(200);
  });

  it('takes a key of the user’s account, not another’s, and not once removed', async () => {
    const origin = { ip: '127.0.0.1', userAgent: null, isApi: false };
    const pair = ed25519KeyPair();
    const offered = pair.public.split(' ').slice(0, 2).join(' ');
    const asKey = (person: Person) =>
      auth({
        type: 'public_key',
        username: `${person.user.username}.${server.uuid_short}`,
        password: offered,
      });
    expect((await asKey(owner)).statusCode).toBe(403);
    const added = await t.ctx.sshKeys.create(owner.user, { name: 'laptop', publicKey: pair.public }, origin);
    const accepted = await asKey(owner);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user).toBe(owner.user.uuid);
    expect(await asKey(sftpSubuser).then((r) => r.json())).toEqual(invalid);
    await t.ctx.sshKeys.remove(owner.user, added.fingerprint, origin);
    expect((await asKey(owner)).statusCode).toBe(403);
  });

  it('refuses a server that is suspended, installing, restoring, transferring or on a node in maintenance', async () => {
    for (const [state, detail] of conflictStates) {
      await setServerState(t, server, node, state);
      const response = await login(owner);
      expect(response.statusCode).toBe(409);
      expect(response.json().errors[0].detail).toBe(detail);
    }
    await setServerState(t, server, node, {});
    expect((await login(owner)).statusCode).toBe(200);
  });

  it('throttles failed passwords per username and address (429), not the same user elsewhere', async () => {
    const { user, password } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, server, user, ['file.sftp']);
    const from = (ip: string, secret: string) =>
      auth({ type: 'password', username: `${user.username}.${server.uuid_short}`, password: secret, ip });
    for (let i = 0; i < 5; i++) expect((await from('192.0.2.7', 'wrong')).statusCode).toBe(403);
    const locked = await from('192.0.2.7', password);
    expectAccountThrottled(locked);
    expect((await from('192.0.2.8', password)).statusCode).toBe(200);
  });

  it('lets another user in from the address a guesser is locked out at, up to the address ceiling', async () => {
    const target = await createTestUser(t.ctx);
    const neighbour = await createTestUser(t.ctx);
    await addSubuser(t.ctx, server, target.user, ['file.sftp']);
    await addSubuser(t.ctx, server, neighbour.user, ['file.sftp']);
    const from = (person: Person | string, secret: string) =>
      auth({
        type: 'password',
        username: `${typeof person === 'string' ? person : person.user.username}.${server.uuid_short}`,
        password: secret,
        ip: '192.0.2.60',
      });
    for (let i = 0; i < 6; i++) await from(target, 'wrong');
    expect((await from(target, target.password)).statusCode).toBe(429);
    // Same address, another account: not held up by the guesser.
    expect((await from(neighbour, neighbour.password)).statusCode).toBe(200);

    // Failures for many usernames from one address add up to its ceiling (50 a minute, the 5 above included).
    for (let i = 5; i < signInLimits.addressFailures; i++) {
      expect((await from(`nobody${i}`, 'wrong')).statusCode).toBe(403);
    }
    const over = await from(neighbour, neighbour.password);
    expect(over.statusCode).toBe(429);
    expect(over.json().errors[0].code).toBe('TooManyRequestsHttpException');
    // Only that address.
    expect((await login(neighbour)).statusCode).toBe(200);
  });

  it('bounds guesses against one account spread over many addresses, as the web sign-in does', async () => {
    const victim = await createTestUser(t.ctx);
    await addSubuser(t.ctx, server, victim.user, ['file.sftp']);
    // The owner of the account signed in on the web from one address, and logged in over SFTP from another.
    await new TestBrowser(t.app, '198.51.100.1').signIn(victim.user.username, victim.password);
    const from = (ip: string, secret: string) =>
      auth({
        type: 'password',
        username: `${victim.user.username}.${server.uuid_short}`,
        password: secret,
        ip,
      });
    expect((await from('198.51.100.2', victim.password)).statusCode).toBe(200);

    // 200 guesses from 40 addresses, 5 each (each address under its own count of 5 a minute).
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (let address = 1; address <= 40; address++) {
        statuses.push((await from(`203.0.113.${address}`, `guess-${round}-${address}`)).statusCode);
      }
    }
    // The free failures and the one that starts the wait were checked; everything after it was refused unchecked.
    const checked = signInLimits.accountFreeFailures + 1;
    expect(statuses.slice(0, checked)).toEqual(Array(checked).fill(403));
    expect(statuses.slice(checked)).toEqual(Array(200 - checked).fill(429));

    // The right password from a new address waits too…
    const refused = await from('192.0.2.200', victim.password);
    expectAccountThrottled(refused);
    // …but not from where the owner signed in on the web, nor where they logged in over SFTP before.
    expect((await from('198.51.100.1', victim.password)).statusCode).toBe(200);
    expect((await from('198.51.100.2', victim.password)).statusCode).toBe(200);
    // The web counts the same guesses: its sign-in from a new address waits as well…
    const web = await new TestBrowser(t.app, '192.0.2.201').post('/auth/login', {
      user: victim.user.username,
      password: victim.password,
    });
    expect(web.statusCode).toBe(429);
    // …and an address known from SFTP alone (no 2FA there) spares nobody the web's wait.
    const webFromSftpAddress = await new TestBrowser(t.app, '198.51.100.2').post('/auth/login', {
      user: victim.user.username,
      password: victim.password,
    });
    expect(webFromSftpAddress.statusCode).toBe(429);
  });

  it('lets no more guesses through in parallel than one after the other', async () => {
    const victim = await createTestUser(t.ctx);
    await addSubuser(t.ctx, server, victim.user, ['file.sftp']);
    const from = (ip: string, secret: string) =>
      auth({
        type: 'password',
        username: `${victim.user.username}.${server.uuid_short}`,
        password: secret,
        ip,
      });
    // 40 guesses at once, one from each of 40 addresses.
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => from(`203.0.115.${i + 1}`, `guess-${i}`)),
    );
    const statuses = responses.map((response) => response.statusCode);
    const checked = signInLimits.accountFreeFailures + 1;
    expect(statuses.filter((status) => status === 403)).toHaveLength(checked);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - checked);
    expect((await from('192.0.2.202', victim.password)).statusCode).toBe(429);
  });

  it('counts an unknown username’s guesses the same way', async () => {
    const name = `ghost${++ipCounter}`;
    const statuses: number[] = [];
    for (let address = 1; address <= 20; address++) {
      const response = await auth({
        type: 'password',
        username: `${name}.${server.uuid_short}`,
        password: 'guess',
        ip: `203.0.114.${address}`,
      });
      statuses.push(response.statusCode);
    }
    const checked = signInLimits.accountFreeFailures + 1;
    expect(statuses).toEqual([...Array(checked).fill(403), ...Array(20 - checked).fill(429)]);
  });

  it('does not count key offers the user does not hold', async () => {
    const { user, password } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, server, user, ['file.sftp']);
    const ip = '192.0.2.50';
    for (let i = 0; i < 8; i++) {
      const key = ed25519KeyPair().public.split(' ').slice(0, 2).join(' ');
      const offer = await auth({
        type: 'public_key',
        username: `${user.username}.${server.uuid_short}`,
        password: key,
        ip,
      });
      expect(offer.statusCode).toBe(403);
    }
    const response = await auth({
      type: 'password',
      username: `${user.username}.${server.uuid_short}`,
      password,
      ip,
    });
    expect(response.statusCode).toBe(200);
  });

  it('validates the body as Wings sends it and needs the node token', async () => {
    const missing = await auth({ type: 'password' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.map((e: { meta: unknown }) => e.meta)).toEqual([
      { source_field: 'username', rule: 'required' },
      { source_field: 'password', rule: 'required' },
    ]);
    expect((await auth({ type: 'token', username: 'a.b', password: 'x' })).statusCode).toBe(422);
    const noServer = await auth({ username: owner.user.username, password: owner.password });
    expect(noServer.statusCode).toBe(400);
    expect(noServer.json().errors[0].detail).toBe(sftpAuthMessages.noServer);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/remote/sftp/auth', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});
