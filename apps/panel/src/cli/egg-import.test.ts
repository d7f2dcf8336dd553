import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@aerie/panel/config/load-config';
import { migrateToLatest } from '@aerie/panel/db/migrator';
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
    ];
    const expected = [
      /^broken\.json: This file is not a Pterodactyl egg export: it is not valid JSON \(.+\)\.$/,
      /^list\.json: This file is not a Pterodactyl egg export: expected a JSON object\.$/,
      /^old\.json: This file is not a Pterodactyl egg export: meta\.version must be PTDL_v1 or PTDL_v2 \(found "PTDL_v0"\)\.$/,
      /^invalid\.json: This egg export is not valid: .+\.$/,
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
