import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { User } from '@aerie/panel/features/users/user';
import {
  accessDeniedJson,
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
  notFoundJson,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount, madeWithKey } from '@aerie/panel/test/audit-entries';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { createTestNode, createTestServer } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEgg } from './import-egg';
import { parseEggExportText } from './ptdl/parse-egg-export';

const fixtures = join(import.meta.dirname, '../../../test/fixtures/eggs');
const fixtureText = (name: string) => readFileSync(join(fixtures, name), 'utf8');

let t: TestApp;
let bearer: string;
let admin: User;
/** Nest "Games" holds paper (with a server) and factorio; nest "Other" holds rust. */
let games: number;
let other: number;
let paper: number;
let factorio: number;
let rust: number;
let serverId: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, bearer } = await createAdminWithKey(t.ctx));
  const load = (name: string, nestName: string) =>
    importEgg(t.db, parseEggExportText(fixtureText(name)), { nestName });
  const paperEgg = await load('ptdl-v2/minecraft-paper.json', 'Games');
  paper = paperEgg.id;
  games = paperEgg.nestId;
  factorio = (await load('ptdl-v2/factorio.json', 'Games')).id;
  const rustEgg = await load('ptdl-v2/rust.json', 'Other');
  rust = rustEgg.id;
  other = rustEgg.nestId;
  const owner = (await createTestUser(t.ctx)).user;
  const node = await createTestNode(t.ctx);
  serverId = (await createTestServer(t.ctx, { owner, node, eggId: paper })).id;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  applicationRequest(t.app, bearer, method, url, body);

const errorsOf = (response: { json: () => unknown }) =>
  (response.json() as { errors: { detail: string; meta?: { source_field: string } }[] }).errors;

const displayJson = (detail: string) => ({
  errors: [{ code: 'DisplayException', status: '400', detail }],
});

describe('nests', () => {
  it('creates a nest with the admin as author; 422 for a missing or taken name', async () => {
    const created = await call('POST', 'nests', { name: ' Sandbox ', description: 'Test games' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.attributes).toMatchObject({
      name: 'Sandbox',
      description: 'Test games',
      author: admin.email,
    });
    expect(body.meta.resource).toMatch(new RegExp(`/api/application/nests/${body.attributes.id}$`));

    const missing = await call('POST', 'nests', { description: 'x' });
    expect(missing.statusCode).toBe(422);
    expect(errorsOf(missing)[0]).toMatchObject({ detail: 'The name field is required.' });
    const taken = await call('POST', 'nests', { name: 'Games' });
    expect(taken.statusCode).toBe(422);
    expect(errorsOf(taken)[0]).toMatchObject({ detail: 'The name has already been taken.' });
  });

  it('updates a nest; 404 unknown; 403 without write on nests', async () => {
    const nest = (await call('POST', 'nests', { name: 'Renamed soon' })).json().attributes;
    const updated = await call('PATCH', `nests/${nest.id}`, { name: 'Renamed', description: null });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().attributes).toMatchObject({ id: nest.id, name: 'Renamed', description: null });
    expect((await call('PATCH', 'nests/99999', { name: 'x' })).json()).toEqual(notFoundJson);

    const readOnly = await createApplicationBearer(t.ctx, admin, { nests: 1 });
    for (const [method, url] of [
      ['POST', 'nests'],
      ['PATCH', `nests/${nest.id}`],
      ['DELETE', `nests/${nest.id}`],
    ] as const) {
      const denied = await applicationRequest(t.app, readOnly, method, url, { name: 'x' });
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      expect(denied.json()).toEqual(accessDeniedJson);
    }
  });

  it('refuses to delete a nest with servers; deletes one without, with its eggs', async () => {
    const refused = await call('DELETE', `nests/${games}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(displayJson('Cannot delete a nest that contains active servers.'));

    const spare = await importEgg(t.db, parseEggExportText(fixtureText('ptdl-v2/valheim.json')), {
      nestName: 'Spare',
    });
    expect((await call('DELETE', `nests/${spare.nestId}`)).statusCode).toBe(204);
    expect((await call('GET', `nests/${spare.nestId}`)).statusCode).toBe(404);
    const eggs = await t.db.selectFrom('eggs').select('id').where('id', '=', spare.id).execute();
    const variables = await t.db
      .selectFrom('egg_variables')
      .select('id')
      .where('egg_id', '=', spare.id)
      .execute();
    expect([eggs, variables]).toEqual([[], []]);
  });
});

describe('PATCH nests/{id}/eggs/{egg}', () => {
  it('changes the fields sent and keeps the others', async () => {
    const response = await call('PATCH', `nests/${games}/eggs/${factorio}`, {
      name: '  Factorio (edited) ',
      description: 'A factory game',
      docker_images: { 'Debian 12': 'ghcr.io/parkervcp/yolks:debian', Ubuntu: 'ghcr.io/example/ubuntu:22' },
      startup: './bin/x64/factorio --start-server',
      config_stop: '/quit',
      config_startup: ['Hosting game at', 'regex:^Ready$'],
      file_denylist: ['*.lock'],
      script_install: '#!/bin/bash\r\necho hi  \n',
      script_container: 'ghcr.io/example/installer:latest',
      script_entry: 'bash',
      script_is_privileged: false,
      features: ['eula'],
    });
    expect(response.statusCode).toBe(200);
    const egg = response.json().attributes;
    expect(egg).toMatchObject({
      name: 'Factorio (edited)',
      description: 'A factory game',
      docker_image: 'ghcr.io/parkervcp/yolks:debian',
      docker_images: { 'Debian 12': 'ghcr.io/parkervcp/yolks:debian', Ubuntu: 'ghcr.io/example/ubuntu:22' },
      startup: './bin/x64/factorio --start-server',
      config: { stop: '/quit', file_denylist: ['*.lock'] },
      script: {
        privileged: false,
        install: '#!/bin/bash\r\necho hi  \n',
        container: 'ghcr.io/example/installer:latest',
        entry: 'bash',
      },
    });
    expect(egg.config.startup.done).toEqual(['Hosting game at', 'regex:^Ready$']);
    const row = await t.db
      .selectFrom('eggs')
      .selectAll()
      .where('id', '=', factorio)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.features ?? 'null')).toEqual(['eula']);

    const partial = await call('PATCH', `nests/${games}/eggs/${factorio}`, {
      description: null,
      config_startup: ')! For help, type ',
    });
    expect(partial.json().attributes).toMatchObject({
      name: 'Factorio (edited)',
      description: null,
      config: { stop: '/quit', startup: { done: ')! For help, type ' } },
    });
  });

  it('answers 422 for empty or invalid images, a blank name and a bad done pattern', async () => {
    const cases: [unknown, string, string][] = [
      [{ docker_images: {} }, 'docker_images', 'The docker images field is required.'],
      [{ docker_images: null }, 'docker_images', 'The docker images field is required.'],
      [
        { docker_images: { Java: 'bad image!' } },
        'docker_images.Java',
        'The docker_images.Java format is invalid.',
      ],
      [
        { docker_images: { Java: `ghcr.io/${'a'.repeat(190)}` } },
        'docker_images.Java',
        'The docker_images.Java may not be greater than 191 characters.',
      ],
      [{ name: '   ' }, 'name', 'The name field is required.'],
      [{ startup: '' }, 'startup', 'The startup field is required.'],
      [
        { config_startup: ['regex:('] },
        'config_startup',
        'The done string "regex:(" is not a valid regular expression.',
      ],
    ];
    for (const [body, field, detail] of cases) {
      const response = await call('PATCH', `nests/${games}/eggs/${factorio}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorsOf(response)[0], JSON.stringify(body)).toMatchObject({
        detail,
        meta: { source_field: field },
      });
    }
  });

  it('404 for an egg of another nest or unknown ids; 403 without write on eggs', async () => {
    for (const path of [
      `nests/${games}/eggs/${rust}`,
      `nests/${other}/eggs/${paper}`,
      `nests/99999/eggs/${paper}`,
    ]) {
      const response = await call('PATCH', path, { name: 'x' });
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual(notFoundJson);
      expect((await call('DELETE', path)).statusCode, path).toBe(404);
      expect((await call('GET', `${path}/export`)).statusCode, path).toBe(404);
    }
    const readOnly = await createApplicationBearer(t.ctx, admin, { eggs: 1 });
    const base = `nests/${games}/eggs/${paper}`;
    for (const [method, url] of [
      ['PATCH', base],
      ['DELETE', base],
      ['POST', `${base}/variables`],
    ] as const) {
      const denied = await applicationRequest(t.app, readOnly, method, url, { name: 'x' });
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
    }
    // Reading (the export) needs read only.
    expect((await applicationRequest(t.app, readOnly, 'GET', `${base}/export`)).statusCode).toBe(200);
  });
});

describe('DELETE nests/{id}/eggs/{egg}', () => {
  it('refuses while servers use the egg or another egg extends it; deletes otherwise', async () => {
    const refused = await call('DELETE', `nests/${games}/eggs/${paper}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(
      displayJson('Cannot delete an Egg with active servers attached to it from the Panel.'),
    );

    const child = await importEgg(t.db, parseEggExportText(fixtureText('ptdl-v2/t-modloader.json')), {
      nestName: 'Other',
    });
    await t.db.updateTable('eggs').set({ config_from: rust }).where('id', '=', child.id).execute();
    const parent = await call('DELETE', `nests/${other}/eggs/${rust}`);
    expect(parent.json()).toEqual(
      displayJson('This Egg has children. Please delete the children before deleting this Egg.'),
    );

    expect((await call('DELETE', `nests/${other}/eggs/${child.id}`)).statusCode).toBe(204);
    expect((await call('GET', `nests/${other}/eggs/${child.id}`)).statusCode).toBe(404);
  });
});

describe('egg variables', () => {
  const base = () => `nests/${games}/eggs/${paper}/variables`;
  const variable = {
    name: 'Max players',
    description: 'How many may join',
    env_variable: 'MAX_PLAYERS',
    default_value: '20',
    user_viewable: true,
    user_editable: false,
    rules: 'required|integer|between:1,100',
  };

  it('adds a variable and gives every server of the egg its default; updates and deletes it', async () => {
    const created = await call('POST', base(), variable);
    expect(created.statusCode).toBe(201);
    const attributes = created.json().attributes;
    expect(created.json().object).toBe('egg_variable');
    expect(attributes).toMatchObject({ ...variable, egg_id: paper });
    const value = await t.db
      .selectFrom('server_variables')
      .select('variable_value')
      .where('server_id', '=', serverId)
      .where('variable_id', '=', attributes.id)
      .executeTakeFirstOrThrow();
    expect(value.variable_value).toBe('20');
    const listed = (await call('GET', `nests/${games}/eggs/${paper}?include=variables`)).json();
    const envs = listed.attributes.relationships.variables.data.map(
      (item: { attributes: { env_variable: string } }) => item.attributes.env_variable,
    );
    expect(envs.at(-1)).toBe('MAX_PLAYERS');

    const updated = await call('PATCH', `${base()}/${attributes.id}`, {
      ...variable,
      name: 'Player slots',
      rules: 'nullable|numeric',
      user_editable: true,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().attributes).toMatchObject({
      name: 'Player slots',
      rules: 'nullable|numeric',
      user_editable: true,
    });

    // Keeping its own env name is no conflict; another variable's is.
    const taken = await call('PATCH', `${base()}/${attributes.id}`, {
      ...variable,
      env_variable: 'SERVER_JARFILE',
    });
    expect(taken.statusCode).toBe(422);
    expect(errorsOf(taken)[0]).toMatchObject({ detail: 'The env variable has already been taken.' });

    expect((await call('DELETE', `${base()}/${attributes.id}`)).statusCode).toBe(204);
    const rows = await t.db
      .selectFrom('server_variables')
      .select('id')
      .where('variable_id', '=', attributes.id)
      .execute();
    expect(rows).toEqual([]);
    expect((await call('DELETE', `${base()}/${attributes.id}`)).statusCode).toBe(404);
  });

  it('answers 422 for unknown rules, reserved, malformed and duplicate env names', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { rules: 'required|distinct|max:5' },
        'The validation rule "distinct" is not a valid rule for this application.',
      ],
      [{ env_variable: 'STARTUP' }, 'Cannot use the protected name STARTUP for this environment variable.'],
      [
        { env_variable: 'P_SERVER_LOCATION' },
        'Cannot use the protected name P_SERVER_LOCATION for this environment variable.',
      ],
      [{ env_variable: 'max_players' }, 'The env variable format is invalid.'],
      [{ env_variable: '9LIVES' }, 'The env variable format is invalid.'],
      [{ env_variable: 'SERVER_JARFILE' }, 'The env variable has already been taken.'],
      [{ name: '' }, 'The name field is required.'],
      [{ user_viewable: 'maybe' }, 'The user viewable field must be true or false.'],
    ];
    for (const [change, detail] of cases) {
      const response = await call('POST', base(), { ...variable, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(422);
      expect(errorsOf(response)[0]?.detail, JSON.stringify(change)).toBe(detail);
    }
  });

  it('404 for a variable of another egg', async () => {
    const rustVariable = await t.db
      .selectFrom('egg_variables')
      .select('id')
      .where('egg_id', '=', rust)
      .executeTakeFirstOrThrow();
    const response = await call('PATCH', `${base()}/${rustVariable.id}`, variable);
    expect(response.statusCode).toBe(404);
  });
});

describe('GET nests/{id}/eggs/{egg}/export', () => {
  /** The egg as GET shows it with its variables, without what differs between two copies. */
  async function comparable(nest: number, egg: number) {
    const body = (await call('GET', `nests/${nest}/eggs/${egg}?include=variables`)).json().attributes;
    const {
      id: _id,
      uuid: _uuid,
      nest: _nest,
      created_at: _c,
      updated_at: _u,
      relationships,
      ...rest
    } = body;
    return {
      ...rest,
      variables: relationships.variables.data.map(
        ({
          attributes: { id: _v, egg_id: _e, created_at: _vc, updated_at: _vu, ...variable },
        }: {
          attributes: Record<string, unknown>;
        }) => variable,
      ),
    };
  }

  it('downloads PTDL_v2 as upstream writes it; importing the file gives the same egg', async () => {
    await call('PATCH', `nests/${games}/eggs/${factorio}`, {
      name: 'Factorio Headless',
      config_startup: ['Hosting game at', 'regex:^Ready$'],
      script_is_privileged: true,
    });
    await call('POST', `nests/${games}/eggs/${factorio}/variables`, {
      name: 'Slots',
      env_variable: 'SLOTS',
      default_value: '10',
      user_viewable: true,
      user_editable: true,
      rules: 'required|integer|min:1',
    });
    const response = await call('GET', `nests/${games}/eggs/${factorio}/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename=egg-factorio-headless.json');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toContain('\n    "meta": {');
    expect(response.body).toContain('ghcr.io\\/');
    const file = JSON.parse(response.body);
    expect(Object.keys(file)).toEqual([
      '_comment',
      'meta',
      'exported_at',
      'name',
      'author',
      'description',
      'features',
      'docker_images',
      'file_denylist',
      'startup',
      'config',
      'scripts',
      'variables',
    ]);
    expect(file.meta).toEqual({ version: 'PTDL_v2', update_url: null });
    expect(file.exported_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(typeof file.config.files).toBe('string');
    expect(JSON.parse(file.config.startup)).toEqual({ done: ['Hosting game at', 'regex:^Ready$'] });
    expect(file.variables.at(-1)).toEqual({
      name: 'Slots',
      description: '',
      env_variable: 'SLOTS',
      default_value: '10',
      user_viewable: true,
      user_editable: true,
      rules: 'required|integer|min:1',
      field_type: 'text',
    });

    // Into another nest: a new egg equal to the original.
    const copy = await call('POST', `nests/${other}/eggs/import`, { file: response.body });
    expect(copy.statusCode).toBe(201);
    expect(await comparable(other, copy.json().attributes.id)).toEqual(await comparable(games, factorio));

    // Into its own nest: the same egg, updated in place and unchanged.
    const before = await comparable(games, factorio);
    const again = await call('POST', `nests/${games}/eggs/import`, file);
    expect(again.statusCode).toBe(200);
    expect(again.json().attributes.id).toBe(factorio);
    expect(await comparable(games, factorio)).toEqual(before);
  });
});

describe('the admin audit log of nests, eggs and egg variables', () => {
  const who = () => madeWithKey(admin, bearer);
  /** An object as the log keeps it: as the route renders it, without its timestamps. */
  const logged = ({ created_at: _created, updated_at: _updated, ...item }: Record<string, unknown>) => item;
  /** A spare egg in a nest of its own, imported the CLI's way (which records nothing). */
  const spareEgg = (nestName: string) =>
    importEgg(t.db, parseEggExportText(fixtureText('ptdl-v2/valheim.json')), { nestName });

  it("records a nest's creation, change and deletion with before and after, once each", async () => {
    const created = await call('POST', 'nests', { name: 'Audited nest', description: 'First' });
    expect(created.statusCode).toBe(201);
    const nest = created.json().attributes;
    const changed = await call('PATCH', `nests/${nest.id}`, { name: 'Audited nest 2', description: null });
    expect(changed.statusCode).toBe(200);
    expect((await call('DELETE', `nests/${nest.id}`)).statusCode).toBe(204);
    const updated = changed.json().attributes;
    expect(await auditEntriesAbout(t.db, 'nest', nest.id)).toEqual([
      expect.objectContaining({ ...who(), action: 'nest.create', before: null, after: logged(nest) }),
      expect.objectContaining({
        ...who(),
        action: 'nest.update',
        before: logged(nest),
        after: logged(updated),
      }),
      expect.objectContaining({ ...who(), action: 'nest.delete', before: logged(updated), after: null }),
    ]);
    expect(logged(updated)).toMatchObject({ name: 'Audited nest 2', description: null, author: admin.email });
  });

  it("records an egg's change and its deletion, once each", async () => {
    const egg = await spareEgg('Audited eggs');
    const url = `nests/${egg.nestId}/eggs/${egg.id}`;
    const changed = await call('PATCH', url, { name: 'Valheim audited', startup: './run' });
    expect(changed.statusCode).toBe(200);
    expect((await call('DELETE', url)).statusCode).toBe(204);
    const entries = await auditEntriesAbout(t.db, 'egg', egg.id);
    expect(entries.map((entry) => entry.action)).toEqual(['egg.update', 'egg.delete']);
    expect(entries[0]).toMatchObject({
      ...who(),
      before: { id: egg.id, name: 'Valheim', nest: egg.nestId },
      after: { id: egg.id, name: 'Valheim audited', startup: './run', nest: egg.nestId },
    });
    expect(entries[0]?.before?.startup).not.toBe('./run');
    expect(entries[1]).toMatchObject({
      ...who(),
      before: { id: egg.id, name: 'Valheim audited' },
      after: null,
    });
  });

  it("records a variable's creation, change and deletion, once each", async () => {
    const egg = await spareEgg('Audited variables');
    const base = `nests/${egg.nestId}/eggs/${egg.id}/variables`;
    const body = {
      name: 'Slots',
      env_variable: 'AUDITED_SLOTS',
      default_value: '10',
      rules: 'nullable|string',
    };
    const created = await call('POST', base, body);
    expect(created.statusCode).toBe(201);
    const variable = created.json().attributes;
    const changed = await call('PATCH', `${base}/${variable.id}`, { ...body, default_value: '12' });
    expect(changed.statusCode).toBe(200);
    expect((await call('DELETE', `${base}/${variable.id}`)).statusCode).toBe(204);
    const updated = changed.json().attributes;
    expect(await auditEntriesAbout(t.db, 'egg_variable', variable.id)).toEqual([
      expect.objectContaining({
        ...who(),
        action: 'egg_variable.create',
        before: null,
        after: logged(variable),
      }),
      expect.objectContaining({
        ...who(),
        action: 'egg_variable.update',
        before: logged(variable),
        after: logged(updated),
      }),
      expect.objectContaining({
        ...who(),
        action: 'egg_variable.delete',
        before: logged(updated),
        after: null,
      }),
    ]);
    expect(logged(updated)).toMatchObject({ egg_id: egg.id, default_value: '12' });
  });

  it('records nothing for a change that fails', async () => {
    const egg = await spareEgg('Audited failures');
    const eggUrl = `nests/${egg.nestId}/eggs/${egg.id}`;
    const before = await auditEntryCount(t.db);
    expect((await call('POST', 'nests', { name: 'Games' })).statusCode).toBe(422);
    expect((await call('PATCH', `nests/${egg.nestId}`, { name: 'Games' })).statusCode).toBe(422);
    expect((await call('PATCH', 'nests/99999', { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `nests/${games}`)).statusCode).toBe(400);
    expect((await call('PATCH', eggUrl, { name: '   ' })).statusCode).toBe(422);
    expect((await call('DELETE', `nests/${games}/eggs/${paper}`)).statusCode).toBe(400);
    expect((await call('DELETE', `nests/${games}/eggs/${rust}`)).statusCode).toBe(404);
    const variable = { name: 'Jar', env_variable: 'SERVER_JARFILE', rules: 'nullable|string' };
    expect((await call('POST', `nests/${games}/eggs/${paper}/variables`, variable)).statusCode).toBe(422);
    const rustVariable = await t.db
      .selectFrom('egg_variables')
      .select('id')
      .where('egg_id', '=', rust)
      .executeTakeFirstOrThrow();
    const elsewhere = `nests/${games}/eggs/${paper}/variables/${rustVariable.id}`;
    expect((await call('PATCH', elsewhere, variable)).statusCode).toBe(404);
    expect((await call('DELETE', elsewhere)).statusCode).toBe(404);
    expect(await auditEntryCount(t.db)).toBe(before);
  });
});
