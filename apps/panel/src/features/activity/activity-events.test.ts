import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { type FilesScenario, filesScenario } from '@aerie/panel/test/files-scenario';
import { addServerAllocation, createTestServer } from '@aerie/panel/test/server-factories';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every event the panel records (reference §7.3), each made through its real route and read back through the
 * activity routes, with the properties upstream records.
 */
// biome-ignore lint/suspicious/noExplicitAny: entries are read the way a client reads them.
type Entry = { attributes: Record<string, any> };

let t: TestApp;
let ipSequence = 0;
const browserAt = () => new TestBrowser(t.app, `10.70.0.${++ipSequence}`);

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const accountActivity = async (browser: TestBrowser, query = 'per_page=100') => {
  const response = await browser.get(`/api/client/account/activity?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().data as Entry[];
};
const events = (entries: Entry[]) => entries.map((entry) => entry.attributes.event);
const find = (entries: Entry[], event: string) => entries.find((entry) => entry.attributes.event === event);

describe('sign-in events, on the account', () => {
  it('auth:fail for a wrong password, auth:success for a sign-in, with the address and browser', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = browserAt();
    const ip = browser.ip;
    expect((await browser.post('/auth/login', { user: user.username, password: 'wrong' })).statusCode).toBe(
      400,
    );
    await browser.signIn(user.username, password);
    const entries = await accountActivity(browser, 'include=actor');
    expect(events(entries)).toEqual(['auth:success', 'auth:fail']);
    const [success, fail] = entries as [Entry, Entry];
    expect(success.attributes).toMatchObject({
      ip,
      is_api: false,
      properties: { ip, useragent: 'lightMyRequest' },
      relationships: { actor: { object: 'user', attributes: { uuid: user.uuid } } },
    });
    // Nobody was signed in when it failed: no actor, so the address is not "theirs" to see at the top level.
    expect(fail.attributes).toMatchObject({
      ip: null,
      properties: { ip, useragent: 'lightMyRequest', username: user.username },
      has_additional_metadata: true,
      relationships: { actor: { object: 'null_resource', attributes: null } },
    });
  });

  it('does not log sign-in attempts for names no account has', async () => {
    const before = await t.db.selectFrom('activity_logs').select('id').execute();
    await browserAt().post('/auth/login', { user: 'nobody-at-all', password: 'whatever' });
    expect(await t.db.selectFrom('activity_logs').select('id').execute()).toHaveLength(before.length);
  });

  it('auth:checkpoint, then auth:fail for a wrong code, auth:token and auth:recovery-token', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const { secret, recoveryTokens } = await enableTwoFactor(t.ctx, user);
    const step = async () => {
      const browser = browserAt();
      const login = await browser.post('/auth/login', { user: user.username, password });
      return { browser, token: login.json().data.confirmation_token as string };
    };
    const first = await step();
    const wrong = await first.browser.post('/auth/login/checkpoint', {
      confirmation_token: first.token,
      authentication_code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    const code = await generate({ secret, epoch: Math.floor(t.ctx.clock().getTime() / 1000) });
    const right = await first.browser.post('/auth/login/checkpoint', {
      confirmation_token: first.token,
      authentication_code: code,
    });
    expect(right.statusCode).toBe(200);
    const second = await step();
    const recovered = await second.browser.post('/auth/login/checkpoint', {
      confirmation_token: second.token,
      recovery_token: recoveryTokens[0],
    });
    expect(recovered.statusCode).toBe(200);
    expect(events(await accountActivity(second.browser))).toEqual([
      'auth:success',
      'auth:recovery-token',
      'auth:checkpoint',
      'auth:success',
      'auth:token',
      'auth:fail',
      'auth:checkpoint',
    ]);
  });
});

describe('account events', () => {
  it('email and password changes, API keys (and a refused address), two-factor on and off', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = browserAt();
    await browser.signIn(user.username, password);
    const email = `changed-${user.username}@example.com`;
    expect((await browser.send('PUT', '/api/client/account/email', { email, password })).statusCode).toBe(
      204,
    );

    const created = await browser.post('/api/client/account/api-keys', {
      description: 'Only from the office',
      allowed_ips: ['192.0.2.1'],
    });
    expect(created.statusCode).toBe(200);
    const identifier = created.json().attributes.identifier as string;
    const bearer = `${identifier}${created.json().meta.secret_token}`;
    const blocked = await t.app.inject({
      method: 'GET',
      url: '/api/client/account',
      headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' },
      remoteAddress: '198.51.100.7',
    });
    expect(blocked.statusCode).toBe(403);
    expect((await browser.send('DELETE', `/api/client/account/api-keys/${identifier}`)).statusCode).toBe(204);

    const setup = (await browser.get('/api/client/account/two-factor')).json().data.secret as string;
    const code = await generate({ secret: setup, epoch: Math.floor(t.ctx.clock().getTime() / 1000) });
    expect((await browser.post('/api/client/account/two-factor', { code, password })).statusCode).toBe(200);
    expect((await browser.post('/api/client/account/two-factor/disable', { password })).statusCode).toBe(204);

    const entries = await accountActivity(browser);
    expect(events(entries)).toEqual([
      'user:two-factor.delete',
      'user:two-factor.create',
      'user:api-key.delete',
      'auth:ip-blocked',
      'user:api-key.create',
      'user:account.email-changed',
      'auth:success',
    ]);
    expect(find(entries, 'user:account.email-changed')?.attributes.properties).toEqual({
      old: user.email,
      new: email,
    });
    for (const event of ['user:api-key.create', 'user:api-key.delete']) {
      expect(find(entries, event)?.attributes).toMatchObject({
        properties: { identifier },
        has_additional_metadata: false,
      });
    }
    // Made with the key, from the refused address: the user (its actor) sees where from.
    expect(find(entries, 'auth:ip-blocked')?.attributes).toMatchObject({
      is_api: true,
      ip: '198.51.100.7',
      properties: { identifier },
    });

    const changed = await browser.send('PUT', '/api/client/account/password', {
      current_password: password,
      password: 'another password entirely',
      password_confirmation: 'another password entirely',
    });
    expect(changed.statusCode).toBe(204);
    const again = browserAt();
    await again.signIn(user.username, 'another password entirely');
    expect(events(await accountActivity(again, 'per_page=2'))).toEqual([
      'auth:success',
      'user:account.password-changed',
    ]);
  });
});

describe('server events, on the server', () => {
  let f: FilesScenario;
  const serverActivity = async () => {
    const response = await f.owner.get(
      `/api/client/servers/${f.server.uuid_short}/activity?per_page=100&sort=timestamp`,
    );
    expect(response.statusCode).toBe(200);
    return response.json().data as Entry[];
  };
  const server = (path: string) => `/api/client/servers/${f.server.uuid_short}${path}`;

  beforeAll(async () => {
    f = await filesScenario(t, []);
    await t.db
      .updateTable('eggs')
      .set({
        docker_images: JSON.stringify({
          'Node 20': 'node:20-bookworm-slim',
          'Node 22': 'node:22-bookworm-slim',
        }),
      })
      .where('id', '=', f.egg.id)
      .execute();
    await t.db.updateTable('servers').set({ allocation_limit: 3 }).where('id', '=', f.server.id).execute();
    await addServerAllocation(t.ctx, f.server, '10.0.0.1', 40100);
  });
  afterAll(() => f.daemon.close());

  it('power, console, files, settings, startup, allocations and subusers, each once', async () => {
    const owner = f.owner.browser;
    const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
      const answer = await response;
      expect(answer.statusCode, answer.body).toBeLessThan(300);
      return answer;
    };
    await ok(owner.post(server('/power'), { signal: 'start' }));
    await ok(owner.post(server('/command'), { command: 'say hello' }));

    f.files.set('a.tar.gz', Buffer.from('archive'));
    await ok(f.call(f.owner, 'GET', 'contents?file=hello.txt'));
    await ok(f.call(f.owner, 'GET', 'download?file=hello.txt'));
    await ok(f.call(f.owner, 'POST', 'write?file=new.txt', 'new', { 'content-type': 'text/plain' }));
    await ok(f.call(f.owner, 'POST', 'create-folder', { root: 'configs//', name: 'mods' }));
    await ok(f.call(f.owner, 'PUT', 'rename', { root: '/', files: [{ from: 'new.txt', to: 'newer.txt' }] }));
    await ok(f.call(f.owner, 'POST', 'copy', { location: '/hello.txt' }));
    await ok(f.call(f.owner, 'POST', 'compress', { root: '/', files: ['hello.txt', 'newer.txt'] }));
    f.answerWith((call) => (call.path.endsWith('/files/decompress') ? { status: 204 } : undefined));
    await ok(f.call(f.owner, 'POST', 'decompress', { root: '/', file: 'a.tar.gz' }));
    f.answerWith(undefined);
    await ok(f.call(f.owner, 'POST', 'chmod', { root: '/', files: [{ file: 'hello.txt', mode: '600' }] }));
    await ok(f.call(f.owner, 'POST', 'delete', { root: '/', files: ['newer.txt'] }));

    await ok(owner.post(server('/settings/rename'), { name: 'Renamed', description: 'A description' }));
    await ok(owner.post(server('/settings/reinstall')));
    await t.db.updateTable('servers').set({ status: null }).where('id', '=', f.server.id).execute();
    await ok(owner.send('PUT', server('/settings/docker-image'), { docker_image: 'node:22-bookworm-slim' }));
    await ok(owner.send('PUT', server('/startup/variable'), { key: 'MOTD', value: 'Welcome back' }));

    const extra = await t.db
      .selectFrom('allocations')
      .select('id')
      .where('server_id', '=', f.server.id)
      .where('port', '=', 40100)
      .executeTakeFirstOrThrow();
    await ok(owner.post(server('/network/allocations')));
    await ok(owner.post(server(`/network/allocations/${extra.id}`), { notes: 'voice chat' }));
    await ok(owner.post(server(`/network/allocations/${extra.id}/primary`)));
    const primary = f.server.allocation_id;
    await ok(owner.send('DELETE', server(`/network/allocations/${primary}`)));

    const { user } = await createTestUser(t.ctx);
    await ok(owner.post(server('/users'), { email: user.email, permissions: ['file.read'] }));
    await ok(owner.post(server(`/users/${user.uuid}`), { permissions: ['file.read', 'file.update'] }));
    await ok(owner.send('DELETE', server(`/users/${user.uuid}`)));

    const entries = await serverActivity();
    expect(events(entries)).toEqual([
      'server:power.start',
      'server:console.command',
      'server:file.read',
      'server:file.download',
      'server:file.write',
      'server:file.create-directory',
      'server:file.rename',
      'server:file.copy',
      'server:file.compress',
      'server:file.decompress',
      'server:file.chmod',
      'server:file.delete',
      'server:settings.rename',
      'server:settings.description',
      'server:reinstall',
      'server:startup.image',
      'server:startup.edit',
      'server:allocation.create',
      'server:allocation.notes',
      'server:allocation.primary',
      'server:allocation.delete',
      'server:subuser.create',
      'server:subuser.update',
      'server:subuser.delete',
    ]);
    const properties = (event: string) => find(entries, event)?.attributes.properties;
    expect(properties('server:console.command')).toEqual({ command: 'say hello' });
    expect(properties('server:file.create-directory')).toEqual({ directory: '/configs/', name: 'mods' });
    expect(properties('server:file.rename')).toEqual({
      directory: '/',
      files: [{ from: 'new.txt', to: 'newer.txt' }],
      count: 1,
    });
    expect(properties('server:file.compress')).toMatchObject({
      directory: '/',
      files: ['hello.txt', 'newer.txt'],
      count: 2,
    });
    expect(properties('server:file.delete')).toEqual({ directory: '/', files: ['newer.txt'], count: 1 });
    expect(properties('server:file.read')).toEqual({ file: 'hello.txt' });
    expect(properties('server:settings.rename')).toEqual({ old: f.server.name, new: 'Renamed' });
    expect(properties('server:startup.image')).toEqual({
      old: 'node:20-bookworm-slim',
      new: 'node:22-bookworm-slim',
    });
    expect(properties('server:startup.edit')).toEqual({
      variable: 'MOTD',
      old: 'Welcome to the Aerie demo server!',
      new: 'Welcome back',
    });
    expect(properties('server:allocation.notes')).toEqual({
      allocation: '10.0.0.1:40100',
      old: null,
      new: 'voice chat',
    });
    expect(properties('server:allocation.primary')).toEqual({ allocation: '10.0.0.1:40100' });
    expect(properties('server:subuser.update')).toEqual({
      email: user.email,
      old: ['file.read', 'websocket.connect'],
      old_count: 2,
      new: ['file.read', 'file.update', 'websocket.connect'],
      new_count: 3,
      revoked: true,
    });
    // The ones a description fully tells have nothing more to show.
    expect(find(entries, 'server:power.start')?.attributes.has_additional_metadata).toBe(false);
    expect(find(entries, 'server:console.command')?.attributes.has_additional_metadata).toBe(false);
    expect(find(entries, 'server:subuser.update')?.attributes.has_additional_metadata).toBe(true);
  });

  it('logs nothing when a change changes nothing, or the daemon refuses', async () => {
    const before = (await serverActivity()).length;
    const owner = f.owner.browser;
    await owner.post(server('/settings/rename'), { name: 'Renamed' });
    await owner.send('PUT', server('/startup/variable'), { key: 'MOTD', value: 'Welcome back' });
    f.answerWith(() => ({
      status: 404,
      body: { error: 'The requested resource was not found on this server.' },
    }));
    expect((await f.call(f.owner, 'POST', 'delete', { root: '/', files: ['gone.txt'] })).statusCode).toBe(
      404,
    );
    f.answerWith(undefined);
    expect((await serverActivity()).length).toBe(before);
  });

  it('marks what was done with an API key', async () => {
    const key = await f.owner.browser.post('/api/client/account/api-keys', { description: 'script' });
    const bearer = `${key.json().attributes.identifier}${key.json().meta.secret_token}`;
    const response = await t.app.inject({
      method: 'POST',
      url: server('/command'),
      headers: {
        authorization: `Bearer ${bearer}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ command: 'from a script' }),
    });
    expect(response.statusCode).toBe(204);
    const last = (await serverActivity()).at(-1) as Entry;
    expect(last.attributes).toMatchObject({ event: 'server:console.command', is_api: true });
  });

  it('keeps a server’s events out of the actor’s account log, and puts an invitation in the invitee’s', async () => {
    const account = await accountActivity(f.owner.browser);
    expect(events(account).filter((event) => event.startsWith('server:'))).toEqual([]);
    const other = await createTestServer(t.ctx, { owner: f.owner.user, node: f.node, eggId: f.egg.id });
    await f.owner.browser.post(`/api/client/servers/${other.uuid_short}/users`, {
      email: f.stranger.user.email,
      permissions: ['file.read'],
    });
    const invitee = await accountActivity(f.stranger.browser, 'include=actor');
    expect(invitee[0]?.attributes).toMatchObject({
      event: 'server:subuser.create',
      // Someone else did it: their address is not the invitee's to see.
      ip: null,
      relationships: { actor: { attributes: { uuid: f.owner.user.uuid } } },
    });
  });
});
