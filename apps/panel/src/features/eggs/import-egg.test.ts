import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readBool } from '@aerie/panel/db/dialect';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEgg } from './import-egg';

const fixturesDir = fileURLToPath(new URL('../../../test/fixtures/eggs/', import.meta.url));
const fixtures = ['ptdl-v1', 'ptdl-v2'].flatMap((version) =>
  readdirSync(`${fixturesDir}${version}`)
    .filter((file) => file.endsWith('.json'))
    .map((file) => `${version}/${file}`),
);
const readEgg = (name: string) => parseEggExportText(readFileSync(`${fixturesDir}${name}`, 'utf8'));

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const variablesOf = (eggId: number) =>
  t.db.selectFrom('egg_variables').selectAll().where('egg_id', '=', eggId).orderBy('sort').execute();

describe('importing eggs into the database', () => {
  it.each(fixtures)('%s is stored with its variables, scripts and configuration', async (name) => {
    const egg = readEgg(name);
    const imported = await importEgg(t.db, egg, { nestName: name.split('/')[0] as string });
    expect(imported.created).toBe(true);
    const row = await t.db
      .selectFrom('eggs')
      .selectAll()
      .where('id', '=', imported.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: egg.name,
      author: egg.author,
      description: egg.description,
      startup: egg.startup,
      config_stop: egg.config.stop,
      config_files: egg.config.source.files,
      config_startup: egg.config.source.startup,
      config_logs: egg.config.source.logs,
      script_install: egg.scripts.installation.script,
      script_container: egg.scripts.installation.container,
      script_entry: egg.scripts.installation.entrypoint,
    });
    expect(JSON.parse(row.docker_images)).toEqual(egg.docker_images);
    expect(JSON.parse(row.features ?? 'null')).toEqual(egg.features);
    if (egg.uuid) expect(row.uuid).toBe(egg.uuid);
    const variables = await variablesOf(imported.id);
    expect(
      variables.map((v) => ({
        name: v.name,
        description: v.description,
        env_variable: v.env_variable,
        default_value: v.default_value,
        user_viewable: readBool(v.user_viewable),
        user_editable: readBool(v.user_editable),
        rules: v.rules,
      })),
    ).toEqual(egg.variables.map(({ field_type: _ignored, ...variable }) => variable));
  });

  it('updates the egg of the same name in the nest: changed variables kept by env, dropped ones removed', async () => {
    const egg = readEgg('ptdl-v2/valheim.json');
    const first = await importEgg(t.db, egg, { nestName: 'Update nest' });
    const [kept, dropped, ...others] = egg.variables;
    if (!kept || !dropped) throw new Error('the fixture needs two variables');
    const keptId = (await variablesOf(first.id)).find((v) => v.env_variable === kept.env_variable)?.id;
    const changed = {
      ...egg,
      description: 'A changed description',
      variables: [{ ...kept, default_value: 'changed' }, ...others],
    };
    const second = await importEgg(t.db, changed, { nestName: 'Update nest' });
    expect(second).toMatchObject({ id: first.id, created: false });
    const variables = await variablesOf(first.id);
    expect(variables.map((v) => v.env_variable)).toEqual([kept, ...others].map((v) => v.env_variable));
    expect(variables.find((v) => v.env_variable === kept.env_variable)).toMatchObject({
      id: keptId,
      default_value: 'changed',
    });
    const nests = await t.db.selectFrom('nests').select('name').where('name', '=', 'Update nest').execute();
    expect(nests).toHaveLength(1);
  });

  it('creates a second egg when the same file goes into another nest without a uuid', async () => {
    const egg = { ...readEgg('ptdl-v1/garrys-mod.json'), uuid: null };
    const a = await importEgg(t.db, egg, { nestName: 'Nest A' });
    const b = await importEgg(t.db, egg, { nestName: 'Nest B' });
    expect(a.id).not.toBe(b.id);
    expect(a.nestId).not.toBe(b.nestId);
  });
});
