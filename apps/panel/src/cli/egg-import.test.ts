import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@aerie/panel/config/load-config';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import { pelicanYamlEgg } from '@aerie/panel/features/eggs/ptdl/pelican-egg.test-fixture';
import { createTestDatabase, type TestDatabase } from '@aerie/panel/test/test-database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const aerie = join(repoRoot, 'bin/aerie.mjs');
const fixture = (name: string) => join(repoRoot, 'apps/panel/test/fixtures/eggs', name);
let dir: string;
let database: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aerie-egg-import-'));
  mkdirSync(join(dir, 'data'));
  database = await createTestDatabase(join(dir, 'data'));
  await migrateToLatest(database.db);
  env = {
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  };
});
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) =>
  spawnSync(process.execPath, [aerie, 'egg:import', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });

const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('aerie egg:import', { timeout: 60_000 }, () => {
  it('imports an egg into the default nest, then updates it on a second run', async () => {
    const first = run([fixture('ptdl-v2/valheim.json')]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    // The first command on a fresh DATA_DIR also says it generated the app key.
    expect(first.stdout).toMatch(
      /\nImported egg "Valheim" \([0-9a-f-]{36}\) in nest "Aerie" with 16 variables\.\n$/,
    );
    const again = run([fixture('ptdl-v2/valheim.json')]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      /^Updated egg "Valheim" \([0-9a-f-]{36}\) in nest "Aerie" with 16 variables\.\n$/,
    );
    const eggs = await database.db.selectFrom('eggs').select('name').where('name', '=', 'Valheim').execute();
    expect(eggs).toHaveLength(1);
  });

  it('puts the egg into the nest named by --nest', async () => {
    const result = run([fixture('ptdl-v1/garrys-mod.json'), '--nest', 'Source Engine']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('in nest "Source Engine"');
    const nest = await database.db
      .selectFrom('nests')
      .innerJoin('eggs', 'eggs.nest_id', 'nests.id')
      .select(['nests.name', 'eggs.name as egg'])
      .where('nests.name', '=', 'Source Engine')
      .execute();
    expect(nest).toEqual([{ name: 'Source Engine', egg: 'Garrys Mod' }]);
  });

  it('imports a Pelican PLCN_v3 YAML export', async () => {
    const result = run([write('lantern.yaml', pelicanYamlEgg)]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      'Imported egg "Lantern" (3f0c6a52-7d1e-4b8a-9c2f-5e6d7a8b9c0d) in nest "Aerie" with 4 variables.\n',
    );
    const egg = await database.db
      .selectFrom('eggs')
      .select(['startup', 'config_files'])
      .where('uuid', '=', '3f0c6a52-7d1e-4b8a-9c2f-5e6d7a8b9c0d')
      .executeTakeFirstOrThrow();
    expect(egg.startup).toBe('java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}');
    expect(egg.config_files).toContain('{{server.build.default.port}}');
  });

  it.each([
    [[], 'Missing the egg file: aerie egg:import FILE [--nest NAME].'],
    [['--nest', 'X'], 'Missing the egg file: aerie egg:import FILE [--nest NAME].'],
    [['/nowhere/egg.json'], 'Cannot read /nowhere/egg.json: ENOENT.'],
  ])('refuses %j with a clear message', (args, message) => {
    const result = run(args);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(message);
  });

  it("reports the parser's message for files that are not eggs, and imports nothing", async () => {
    const cases: [string, string][] = [
      ['broken.json', '{"meta": '],
      ['list.json', '[]'],
      ['old.json', '{"meta":{"version":"PTDL_v0"}}'],
      ['invalid.json', '{"meta":{"version":"PTDL_v2"},"name":"No startup"}'],
      [
        'bomb.yaml',
        'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n',
      ],
      ['huge.yaml', `name: '${'x'.repeat(1024 * 1024)}'\n`],
    ];
    const expected = [
      /^broken\.json: This file is not a Pterodactyl or Pelican egg export: it is not valid JSON \(.+\)\.$/,
      /^list\.json: This file is not a Pterodactyl or Pelican egg export: expected a JSON or YAML object\.$/,
      /^old\.json: This file is not a Pterodactyl or Pelican egg export: meta\.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 \(found "PTDL_v0"\)\.$/,
      /^invalid\.json: This egg export is not valid: .+\.$/,
      /^bomb\.yaml: This file is not a Pterodactyl or Pelican egg export: it is neither JSON nor valid YAML \(its aliases expand too far, .+\)\.$/,
      /^huge\.yaml: This egg file is too large \(1048585 bytes\): at most 1048576 bytes \(1 MiB\) are read\.$/,
    ];
    const before = await database.db.selectFrom('eggs').select('id').execute();
    cases.forEach(([name, text], index) => {
      const file = write(name, text);
      const result = run([file]);
      expect(result.status).toBe(1);
      expect(result.stderr.trim().replace(`${dir}/`, '')).toMatch(expected[index] as RegExp);
    });
    expect(await database.db.selectFrom('eggs').select('id').execute()).toHaveLength(before.length);
  });
});
