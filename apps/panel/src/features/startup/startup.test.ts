import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addSubuser } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  serverScenarioWithDaemon,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The Startup page's API (reference §7.2 "Startup and settings") on the demo egg plus variables that exercise
 * the rules: a hidden one, a read-only one, a nullable one and one with the reference's Bungeecord rule.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let updater: Actor;
/** After the demo egg's own variables. */
let sort = 100;

const url = (suffix = '') => `/api/client/servers/${s.server.uuid_short}/startup${suffix}`;
const put = (actor: Actor, body: unknown) =>
  actor.browser.send('PUT', url('/variable'), body as Record<string, unknown>);
const syncs = () => s.callsTo('sync').length;

async function addVariable(input: {
  env: string;
  rules: string;
  viewable?: boolean;
  editable?: boolean;
  value?: string;
  defaultValue?: string;
}) {
  const now = new Date();
  await t.db
    .insertInto('egg_variables')
    .values({
      egg_id: s.egg.id,
      name: `${input.env} name`,
      description: `${input.env} description`,
      env_variable: input.env,
      default_value: input.defaultValue ?? 'latest',
      user_viewable: input.viewable ?? true,
      user_editable: input.editable ?? true,
      rules: input.rules,
      sort: ++sort,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

async function storedValue(env: string) {
  const row = await t.db
    .selectFrom('server_variables')
    .innerJoin('egg_variables', 'egg_variables.id', 'server_variables.variable_id')
    .select('server_variables.variable_value')
    .where('server_variables.server_id', '=', s.server.id)
    .where('egg_variables.env_variable', '=', env)
    .executeTakeFirst();
  return row?.variable_value;
}

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ['startup.read']);
  await addVariable({ env: 'BUNGEE_VERSION', rules: 'required|alpha_num|between:1,6' });
  await addVariable({
    env: 'SECRET_TOKEN',
    rules: 'required|string',
    viewable: false,
    defaultValue: 'hunter2',
  });
  await addVariable({ env: 'NOTE', rules: 'nullable|string|max:20' });
  await addVariable({
    env: 'MODE',
    rules: 'required|string|regex:/^(survival|creative)$/',
    defaultValue: 'survival',
  });
  await t.db
    .updateTable('servers')
    .set({
      startup:
        'run --motd "{{MOTD}}" --v {{BUNGEE_VERSION}} --token {{SECRET_TOKEN}} --port {{SERVER_PORT}} -m {{SERVER_MEMORY}}',
    })
    .where('id', '=', s.server.id)
    .execute();
  await t.db
    .updateTable('eggs')
    .set({
      docker_images: JSON.stringify({
        'Node 20': 'node:20-bookworm-slim',
        'Node 22': 'node:22-bookworm-slim',
      }),
    })
    .where('id', '=', s.egg.id)
    .execute();
  updater = await signedIn(t);
  await addSubuser(t.ctx, s.server, updater.user, ['startup.update']);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('server_variables').where('server_id', '=', s.server.id).execute();
});

describe('GET …/startup', () => {
  it('lists the viewable variables and the command with hidden values hidden', async () => {
    const response = await s.subuser.get(url());
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const port = (
      await t.db
        .selectFrom('allocations')
        .select('port')
        .where('id', '=', s.server.allocation_id)
        .executeTakeFirstOrThrow()
    ).port;
    expect(body.meta).toEqual({
      startup_command: `run --motd "Welcome to the Aerie demo server!" --v latest --token [hidden] --port ${port} -m 1024`,
      docker_images: { 'Node 20': 'node:20-bookworm-slim', 'Node 22': 'node:22-bookworm-slim' },
      raw_startup_command:
        'run --motd "{{MOTD}}" --v {{BUNGEE_VERSION}} --token {{SECRET_TOKEN}} --port {{SERVER_PORT}} -m {{SERVER_MEMORY}}',
    });
    expect(
      body.data.map((item: { attributes: { env_variable: string } }) => item.attributes.env_variable),
    ).toEqual(['MOTD', 'MAX_PLAYERS', 'BUNGEE_VERSION', 'NOTE', 'MODE']);
    expect(body.data[1]).toEqual({
      object: 'egg_variable',
      attributes: {
        name: 'Maximum Players',
        description: 'How many players may be connected at the same time. Set by the administrator.',
        env_variable: 'MAX_PLAYERS',
        default_value: '10',
        server_value: null,
        is_editable: false,
        rules: 'required|integer|between:1,100',
      },
    });
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });

  it('answers 403 without startup.read (startup.update alone is not enough) and 404 to a stranger', async () => {
    expect((await updater.get(url())).statusCode).toBe(403);
    expect((await s.limited.get(url())).statusCode).toBe(403);
    expect((await s.stranger.get(url())).statusCode).toBe(404);
    expect((await s.admin.get(url())).statusCode).toBe(200);
  });

  it.each(conflictStates)('answers 409 while the server is %o', async (...entry) => {
    await expectConflictForEach(t, s, entry, [s.owner], (actor) => actor.get(url()));
  });
});

describe('PUT …/startup/variable', () => {
  it('stores a value the rules allow, answers the variable and the new command, and tells the daemon', async () => {
    const before = syncs();
    const response = await put(updater, { key: 'BUNGEE_VERSION', value: '123' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'egg_variable',
      attributes: expect.objectContaining({
        env_variable: 'BUNGEE_VERSION',
        server_value: '123',
        is_editable: true,
      }),
      meta: {
        startup_command: expect.stringContaining('--v 123 --token [hidden]'),
        raw_startup_command: expect.stringContaining('{{BUNGEE_VERSION}}'),
      },
    });
    expect(await storedValue('BUNGEE_VERSION')).toBe('123');
    expect(syncs()).toBe(before + 1);
  });

  it('answers the variable’s own rule failure as 422 on `value`, in Laravel’s words, and stores nothing', async () => {
    const response = await put(s.owner, { key: 'BUNGEE_VERSION', value: '1.2.3' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The value may only contain letters and numbers.',
        meta: { source_field: 'value', rule: 'alpha_num' },
      },
    ]);
    const long = await put(s.owner, { key: 'BUNGEE_VERSION', value: 'abcdefg' });
    expect(long.json().errors[0].detail).toBe('The value must be between 1 and 6 characters.');
    const mode = await put(s.owner, { key: 'MODE', value: 'hardcore' });
    expect(mode.json().errors[0]).toMatchObject({
      detail: 'The value format is invalid.',
      meta: { rule: 'regex' },
    });
    expect((await put(s.owner, { key: 'MODE', value: 'creative' })).statusCode).toBe(200);
    expect(await storedValue('BUNGEE_VERSION')).toBeUndefined();
  });

  it('accepts "" and null for a nullable variable and answers server_value null', async () => {
    for (const value of ['', null]) {
      const response = await put(s.owner, { key: 'NOTE', value });
      expect(response.statusCode).toBe(200);
      expect(response.json().attributes.server_value).toBeNull();
      expect(await storedValue('NOTE')).toBe('');
    }
    const required = await put(s.owner, { key: 'MOTD', value: '' });
    expect(required.json().errors[0]).toMatchObject({
      detail: 'The value field is required.',
      meta: { rule: 'required' },
    });
  });

  it('judges numbers and booleans as their text, and refuses lists', async () => {
    expect((await put(s.owner, { key: 'BUNGEE_VERSION', value: 42 })).json().attributes.server_value).toBe(
      '42',
    );
    const list = await put(s.owner, { key: 'NOTE', value: ['a'] });
    expect(list.statusCode).toBe(422);
    expect(list.json().errors[0].meta).toEqual({ source_field: 'value', rule: 'string' });
  });

  it('refuses a hidden or unknown variable as missing, and a read-only one, with the reference’s words', async () => {
    for (const key of ['SECRET_TOKEN', 'NOPE']) {
      const response = await put(s.owner, { key, value: 'x' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toEqual({
        code: 'BadRequestHttpException',
        status: '400',
        detail: 'The environment variable you are trying to edit does not exist.',
      });
    }
    const readOnly = await put(s.owner, { key: 'MAX_PLAYERS', value: '50' });
    expect(readOnly.json().errors[0].detail).toBe(
      'The environment variable you are trying to edit is read-only.',
    );
    expect(await storedValue('MAX_PLAYERS')).toBeUndefined();
  });

  it('wants a key and the value key (present)', async () => {
    const response = await put(s.owner, {});
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((error: { meta: object }) => error.meta)).toEqual([
      { source_field: 'key', rule: 'required' },
      { source_field: 'value', rule: 'present' },
    ]);
  });

  it('runs a hostile pattern in linear time on a long value', async () => {
    await addVariable({ env: 'EVIL', rules: 'required|regex:/^(a+)+$/' });
    const started = Date.now();
    const response = await put(s.owner, { key: 'EVIL', value: `${'a'.repeat(100_000)}b` });
    expect(response.statusCode).toBe(422);
    // A backtracking engine would not finish this in any time a test could wait for.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 403 without startup.update and 404 to a stranger, changing nothing', async () => {
    expect((await put(s.subuser, { key: 'MOTD', value: 'hi' })).statusCode).toBe(403);
    expect((await put(s.stranger, { key: 'MOTD', value: 'hi' })).statusCode).toBe(404);
    expect(await storedValue('MOTD')).toBeUndefined();
  });
});
