import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toWireDate } from '@aerie/panel/db/dialect';
import type { User } from '@aerie/panel/features/users/user';
import {
  accessDeniedJson,
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
  notFoundJson,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEgg } from './import-egg';
import { parseEggExportText } from './ptdl/parse-egg-export';
import { pelicanYamlEgg } from './ptdl/pelican-egg.test-fixture';

const fixtures = join(import.meta.dirname, '../../../test/fixtures/eggs');
const fixtureText = (name: string) => readFileSync(join(fixtures, name), 'utf8');

let t: TestApp;
let bearer: string;
let admin: User;
/** Nest "Games" holds paper (PTDL_v2, 2 images) and factorio; nest "Other" holds rust. */
let games: { id: number };
let other: { id: number };
let paper: { id: number };
let factorio: { id: number };
let rust: { id: number };

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, bearer } = await createAdminWithKey(t.ctx));
  const load = (name: string, nestName: string) =>
    importEgg(t.db, parseEggExportText(fixtureText(name)), { nestName });
  const paperEgg = await load('ptdl-v2/minecraft-paper.json', 'Games');
  factorio = await load('ptdl-v2/factorio.json', 'Games');
  const rustEgg = await load('ptdl-v2/rust.json', 'Other');
  paper = paperEgg;
  rust = rustEgg;
  games = { id: paperEgg.nestId };
  other = { id: rustEgg.nestId };
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  applicationRequest(t.app, bearer, method, url, body);

const nestRow = (id: number) =>
  t.db.selectFrom('nests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const eggRow = (id: number) =>
  t.db.selectFrom('eggs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const asDate = (value: Date | string) => new Date(value);

async function nestAttributes(id: number) {
  const row = await nestRow(id);
  return {
    id: row.id,
    uuid: row.uuid,
    author: row.author,
    name: row.name,
    description: row.description,
    created_at: toWireDate(asDate(row.created_at)),
    updated_at: toWireDate(asDate(row.updated_at)),
  };
}

describe('GET /api/application/nests', () => {
  it('lists the nests, paginated by 50 by default, with exact attributes', async () => {
    const response = await call('GET', 'nests');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'list',
      data: [
        { object: 'nest', attributes: await nestAttributes(games.id) },
        { object: 'nest', attributes: await nestAttributes(other.id) },
      ],
      meta: {
        pagination: { total: 2, count: 2, per_page: 50, current_page: 1, total_pages: 1, links: [] },
      },
    });
    const paged = (await call('GET', 'nests?per_page=1&page=2&filter[name]=x&sort=-id')).json();
    // Filters and sorts are ignored on nests, as upstream.
    expect(paged.data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual([other.id]);
    expect(paged.meta.pagination).toMatchObject({
      total: 2,
      count: 1,
      per_page: 1,
      current_page: 2,
      total_pages: 2,
    });
  });

  it('returns one nest; 404 for nests/nil and unknown ids', async () => {
    const response = await call('GET', `nests/${games.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ object: 'nest', attributes: await nestAttributes(games.id) });
    for (const path of ['nests/nil', 'nests/99999']) {
      const missing = await call('GET', path);
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json()).toEqual(notFoundJson);
    }
  });

  it('includes the eggs with read on eggs, null_resource without; servers with read on servers', async () => {
    const response = (await call('GET', `nests/${games.id}?include=eggs,servers`)).json();
    expect(Object.keys(response.attributes.relationships).sort()).toEqual(['eggs', 'servers']);
    expect(response.attributes.relationships.servers).toEqual({ object: 'list', data: [] });
    expect(response.attributes.relationships.eggs.object).toBe('list');
    expect(
      response.attributes.relationships.eggs.data.map(
        (item: { attributes: { id: number } }) => item.attributes.id,
      ),
    ).toEqual([paper.id, factorio.id]);

    const noEggs = await createApplicationBearer(t.ctx, admin, { eggs: 0 });
    const gated = (await applicationRequest(t.app, noEggs, 'GET', `nests/${games.id}?include=eggs`)).json();
    expect(gated.attributes.relationships).toEqual({ eggs: { object: 'null_resource', attributes: null } });
  });

  it('answers 403 to a key without read on nests (eggs alone is not enough)', async () => {
    const noNests = await createApplicationBearer(t.ctx, admin, { nests: 0 });
    for (const path of ['nests', `nests/${games.id}`]) {
      const response = await applicationRequest(t.app, noNests, 'GET', path);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(accessDeniedJson);
    }
  });
});

describe('GET /api/application/nests/{nest}/eggs', () => {
  it('returns an egg with the attributes of the reference, in order', async () => {
    const row = await eggRow(paper.id);
    const response = await call('GET', `nests/${games.id}/eggs/${paper.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['object', 'attributes']);
    expect(body.object).toBe('egg');
    expect(Object.keys(body.attributes)).toEqual([
      'id',
      'uuid',
      'name',
      'nest',
      'author',
      'description',
      'docker_image',
      'docker_images',
      'config',
      'startup',
      'script',
      'created_at',
      'updated_at',
    ]);
    expect(body.attributes).toEqual({
      id: paper.id,
      uuid: row.uuid,
      name: row.name,
      nest: games.id,
      author: row.author,
      description: row.description,
      docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
      docker_images: JSON.parse(row.docker_images),
      config: {
        files: JSON.parse(row.config_files as string),
        startup: JSON.parse(row.config_startup as string),
        stop: row.config_stop,
        logs: JSON.parse(row.config_logs as string),
        file_denylist: [],
        extends: null,
      },
      startup: row.startup,
      script: {
        privileged: true,
        install: row.script_install,
        entry: row.script_entry,
        container: row.script_container,
        extends: null,
      },
      created_at: toWireDate(asDate(row.created_at)),
      updated_at: toWireDate(asDate(row.updated_at)),
    });
    expect(Object.keys(body.attributes.config)).toEqual([
      'files',
      'startup',
      'stop',
      'logs',
      'file_denylist',
      'extends',
    ]);
    expect(body.attributes.config.startup).toHaveProperty('done');
    expect(Object.keys(body.attributes.docker_images).slice(0, 2)).toEqual(['Java 21', 'Java 17']);
  });

  it("gives an empty config.files as {} (rust's egg)", async () => {
    const body = (await call('GET', `nests/${other.id}/eggs/${rust.id}`)).json();
    expect(body.attributes.config.files).toEqual({});
  });

  it("lists all of a nest's eggs without meta", async () => {
    const response = await call('GET', `nests/${games.id}/eggs?per_page=1`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['object', 'data']);
    expect(body.data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual([
      paper.id,
      factorio.id,
    ]);
    expect(body.data[0]).toEqual((await call('GET', `nests/${games.id}/eggs/${paper.id}`)).json());
  });

  it('answers 404 for an egg of another nest, an unknown egg or nest, and eggs/nil', async () => {
    for (const path of [
      `nests/${games.id}/eggs/${rust.id}`,
      `nests/${games.id}/eggs/99999`,
      `nests/${games.id}/eggs/nil`,
      `nests/99999/eggs`,
      `nests/99999/eggs/${paper.id}`,
    ]) {
      const response = await call('GET', path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual(notFoundJson);
    }
  });

  it('needs read on eggs, not nests', async () => {
    const noEggs = await createApplicationBearer(t.ctx, admin, { eggs: 0 });
    for (const path of [`nests/${games.id}/eggs`, `nests/${games.id}/eggs/${paper.id}`]) {
      expect((await applicationRequest(t.app, noEggs, 'GET', path)).json()).toEqual(accessDeniedJson);
    }
    const onlyEggs = await createApplicationBearer(t.ctx, admin, { nests: 0 });
    expect((await applicationRequest(t.app, onlyEggs, 'GET', `nests/${games.id}/eggs`)).statusCode).toBe(200);
  });

  it('includes nest and variables (egg_variable rows, microsecond dates), gated by nests and eggs', async () => {
    const response = await call('GET', `nests/${games.id}/eggs/${paper.id}?include=servers,variables,nest`);
    expect(response.statusCode).toBe(200);
    const relationships = response.json().attributes.relationships;
    expect(Object.keys(relationships).sort()).toEqual(['nest', 'servers', 'variables']);
    expect(relationships.servers).toEqual({ object: 'list', data: [] });
    expect(relationships.nest).toEqual({ object: 'nest', attributes: await nestAttributes(games.id) });
    const rows = await t.db
      .selectFrom('egg_variables')
      .selectAll()
      .where('egg_id', '=', paper.id)
      .orderBy('sort')
      .execute();
    expect(rows.length).toBeGreaterThan(1);
    expect(relationships.variables).toEqual({
      object: 'list',
      data: rows.map((row) => ({
        object: 'egg_variable',
        attributes: {
          id: row.id,
          egg_id: paper.id,
          name: row.name,
          description: row.description,
          env_variable: row.env_variable,
          default_value: row.default_value,
          user_viewable: Boolean(row.user_viewable),
          user_editable: Boolean(row.user_editable),
          rules: row.rules,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
          updated_at: `${asDate(row.updated_at).toISOString().slice(0, 23)}000Z`,
        },
      })),
    });

    const noNests = await createApplicationBearer(t.ctx, admin, { nests: 0 });
    const gatedNest = await applicationRequest(
      t.app,
      noNests,
      'GET',
      `nests/${games.id}/eggs/${paper.id}?include=nest,variables`,
    );
    expect(gatedNest.json().attributes.relationships.nest).toEqual({
      object: 'null_resource',
      attributes: null,
    });
    expect(gatedNest.json().attributes.relationships.variables.object).toBe('list');
  });

  it('includes config and script: null_resource unless the egg extends another, then the inherited values', async () => {
    const own = (await call('GET', `nests/${games.id}/eggs/${paper.id}?include=config,script`)).json();
    expect(own.attributes.relationships).toEqual({
      config: { object: 'null_resource', attributes: null },
      script: { object: 'null_resource', attributes: null },
    });

    // factorio inherits paper's config files and install script, keeps its own startup/logs/stop.
    await t.db
      .updateTable('eggs')
      .set({ config_from: paper.id, config_files: null, copy_script_from: paper.id, script_install: null })
      .where('id', '=', factorio.id)
      .execute();
    const parent = await eggRow(paper.id);
    const child = await eggRow(factorio.id);
    const response = (
      await call('GET', `nests/${games.id}/eggs/${factorio.id}?include=config,script`)
    ).json();
    expect(response.attributes.config).toMatchObject({ files: {}, extends: paper.id });
    expect(response.attributes.script.extends).toBe(paper.id);
    expect(response.attributes.relationships).toEqual({
      config: {
        object: null,
        attributes: {
          files: JSON.parse(parent.config_files as string),
          startup: JSON.parse(child.config_startup as string),
          stop: child.config_stop,
          logs: JSON.parse(child.config_logs as string),
        },
      },
      script: {
        object: null,
        attributes: {
          privileged: true,
          install: parent.script_install,
          entry: parent.script_entry,
          container: parent.script_container,
        },
      },
    });
  });
});

describe('POST /api/application/nests/{nest}/eggs/import', () => {
  it('imports a PTDL_v2 export sent as the body: 201 with the egg, variables stored', async () => {
    const response = await call(
      'POST',
      `nests/${other.id}/eggs/import`,
      JSON.parse(fixtureText('ptdl-v2/valheim.json')),
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.object).toBe('egg');
    expect(body.attributes).toMatchObject({ name: 'Valheim', nest: other.id });
    expect(body.meta).toEqual({
      resource: `http://localhost:80/api/application/nests/${other.id}/eggs/${body.attributes.id}`,
    });
    expect((await call('GET', `nests/${other.id}/eggs/${body.attributes.id}`)).json()).toEqual({
      object: body.object,
      attributes: body.attributes,
    });
    const variables = await t.db
      .selectFrom('egg_variables')
      .select('id')
      .where('egg_id', '=', body.attributes.id)
      .execute();
    expect(variables.length).toBeGreaterThan(0);
  });

  it('imports a PTDL_v1 export sent as the text of a `file` field; the same file again updates it (200)', async () => {
    const file = fixtureText('ptdl-v1/teamspeak3-server.json');
    const first = await call('POST', `nests/${other.id}/eggs/import?include=variables`, { file });
    expect(first.statusCode).toBe(201);
    expect(first.json().attributes.relationships.variables.object).toBe('list');
    const again = await call('POST', `nests/${other.id}/eggs/import`, { file });
    expect(again.statusCode).toBe(200);
    expect(again.json().attributes.id).toBe(first.json().attributes.id);
  });

  it('imports a Pelican PLCN_v3 YAML export sent as the text of a `file` field: 201, attributes mapped', async () => {
    const response = await call('POST', `nests/${games.id}/eggs/import?include=variables`, {
      file: pelicanYamlEgg,
    });
    expect(response.statusCode).toBe(201);
    const { attributes } = response.json();
    expect(attributes).toMatchObject({
      uuid: '3f0c6a52-7d1e-4b8a-9c2f-5e6d7a8b9c0d',
      name: 'Lantern',
      nest: games.id,
      author: 'eggs@example.com',
      description: 'A small Java game server, exported from Pelican for the import tests.',
      docker_image: 'ghcr.io/example/yolks:java_21',
      docker_images: {
        'Java 21': 'ghcr.io/example/yolks:java_21',
        'Java 17': 'ghcr.io/example/yolks:java_17',
      },
      startup: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}',
      config: {
        files: {
          'server.properties': {
            parser: 'properties',
            find: {
              'server-ip': '',
              'server-port': '{{server.build.default.port}}',
              motd: '{{server.build.env.MOTD}}',
              'max-players': 20,
            },
          },
        },
        startup: { done: [')! For help, type ', 'regex:^Server ready in \\d+ms'] },
        stop: 'stop',
        logs: {},
        file_denylist: [],
      },
      script: { entry: 'ash', container: 'ghcr.io/example/installers:alpine' },
    });
    expect(attributes.script.install).toMatch(/^#!\/bin\/ash\n# Lantern install script\n/);
    const variables = attributes.relationships.variables.data.map(
      (variable: { attributes: Record<string, unknown> }) => variable.attributes,
    );
    expect(variables.map((variable: { env_variable: string }) => variable.env_variable)).toEqual([
      'VERSION',
      'SERVER_JARFILE',
      'MOTD',
      'WHITELIST',
    ]);
    expect(variables[0]).toMatchObject({ rules: 'required|string|max:20', default_value: 'latest' });
    expect(variables[3]).toMatchObject({ rules: 'boolean', default_value: '0', user_editable: false });
  });

  it('never moves an egg out of another nest: a uuid found elsewhere becomes a new egg', async () => {
    const paperRow = await eggRow(paper.id);
    const exported = { ...JSON.parse(fixtureText('ptdl-v2/minecraft-paper.json')), uuid: paperRow.uuid };
    const response = await call('POST', `nests/${other.id}/eggs/import`, exported);
    expect(response.statusCode).toBe(201);
    expect(response.json().attributes.uuid).not.toBe(paperRow.uuid);
    expect(response.json().attributes.nest).toBe(other.id);
    expect((await eggRow(paper.id)).nest_id).toBe(games.id);
  });

  it('refuses what is not an egg export: 400 DisplayException; 422 per invalid field', async () => {
    const notJson = await call('POST', `nests/${other.id}/eggs/import`, { file: '{ nope' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().errors[0].code).toBe('DisplayException');
    expect(notJson.json().errors[0].detail).toMatch(
      /^This file is not a Pterodactyl or Pelican egg export: it is not valid JSON/,
    );

    const notYaml = await call('POST', `nests/${other.id}/eggs/import`, {
      file: 'meta:\n  version: [PLCN_v3\n',
    });
    expect(notYaml.statusCode).toBe(400);
    expect(notYaml.json().errors[0].detail).toMatch(
      /^This file is not a Pterodactyl or Pelican egg export: it is neither JSON nor valid YAML \(.+\)\.$/,
    );

    const bomb = await call('POST', `nests/${other.id}/eggs/import`, {
      file: 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n',
    });
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().errors[0].detail).toContain('its aliases expand too far');

    const version = await call('POST', `nests/${other.id}/eggs/import`, { meta: { version: 'PTDL_v3' } });
    expect(version.statusCode).toBe(400);
    expect(version.json().errors[0].detail).toBe(
      'This file is not a Pterodactyl or Pelican egg export: meta.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 (found "PTDL_v3").',
    );

    const exported = JSON.parse(fixtureText('ptdl-v2/rust.json'));
    delete exported.name;
    exported.startup = 5;
    const invalid = await call('POST', `nests/${other.id}/eggs/import`, exported);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'name is missing',
        meta: { source_field: 'name', rule: '' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'startup must be a string',
        meta: { source_field: 'startup', rule: '' },
      },
    ]);

    const missingFile = await call('POST', `nests/${other.id}/eggs/import`, { file: '' });
    expect(missingFile.statusCode).toBe(422);
    expect(missingFile.json().errors[0].detail).toBe('The file field is required.');
  });

  it('answers 404 for an unknown nest and 403 to a key with read only on eggs', async () => {
    const body = JSON.parse(fixtureText('ptdl-v2/rust.json'));
    expect((await call('POST', 'nests/99999/eggs/import', body)).json()).toEqual(notFoundJson);
    const readOnly = await createApplicationBearer(t.ctx, admin, { eggs: 1 });
    const refused = await applicationRequest(t.app, readOnly, 'POST', `nests/${other.id}/eggs/import`, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(accessDeniedJson);
  });
});

describe('the admin audit log of an egg import', () => {
  it('records a new egg with what it became, and an import over it with before and after', async () => {
    const exported = JSON.parse(fixtureText('ptdl-v2/t-modloader.json'));
    const first = await call('POST', `nests/${other.id}/eggs/import`, exported);
    expect(first.statusCode).toBe(201);
    const id = first.json().attributes.id as number;
    const again = await call('POST', `nests/${other.id}/eggs/import`, {
      ...exported,
      description: 'Imported again',
    });
    expect(again.statusCode).toBe(200);

    const entries = await auditEntriesAbout(t.db, 'egg', id);
    const who = { actorId: admin.id, actorName: admin.username, apiKey: bearer.slice(0, 16) };
    expect(entries.map((entry) => entry.action)).toEqual(['egg.import', 'egg.import']);
    expect(entries[0]).toMatchObject({
      ...who,
      before: null,
      after: { id, name: exported.name, nest: other.id, description: exported.description },
    });
    expect(entries[1]).toMatchObject({
      ...who,
      before: { id, description: exported.description },
      after: { id, description: 'Imported again' },
    });
  });

  it('records nothing for an import that fails', async () => {
    const before = await auditEntryCount(t.db);
    const invalid = { ...JSON.parse(fixtureText('ptdl-v2/rust.json')), startup: 5 };
    expect((await call('POST', `nests/${other.id}/eggs/import`, { file: '{ nope' })).statusCode).toBe(400);
    expect((await call('POST', `nests/${other.id}/eggs/import`, invalid)).statusCode).toBe(422);
    expect((await call('POST', 'nests/99999/eggs/import', invalid)).statusCode).toBe(404);
    expect(await auditEntryCount(t.db)).toBe(before);
  });
});
