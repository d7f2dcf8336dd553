import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IGNORE_LIMITS } from './ignore-rules';
import { listTarGz } from './testing-archive';

/** The server whose backup carries the hostile rules, and a neighbour on the same node. */
const GAME = '5b6c7d8e-9fa0-4b1c-8d2e-3f4051627384';
const NEIGHBOUR = '6c7d8e9f-a0b1-4c2d-9e3f-405162738495';
/** The finding: an 85-character rule of nested `**` and an 86-character folder path. */
const PATHOLOGICAL_RULE = `**/${'a/**/'.repeat(16)}b/`;
const DEPTH = 43;
/** Enough rules that the walk takes a while (each one costs up to rule × path steps on every folder). */
const RULES = 100;
/** A listing the user waits for; generous for a loaded 2-core machine, far below what the old matcher cost. */
const LISTING_BOUND_MS = 1000;

let panel: PanelStandIn;
let daemon: TestDaemon;
const volume = (uuid: string) => path.join(daemon.dataDirectory, 'volumes', uuid);

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(GAME, fileServerConfiguration(GAME));
  panel.servers.set(NEIGHBOUR, fileServerConfiguration(NEIGHBOUR));
  daemon = await startTestDaemon({ panel, backupOptions: { log: () => {} } });
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

const startBackup = (backup: string, ignore: string) =>
  daemon.request('POST', `/api/servers/${GAME}/backup`, { body: { adapter: 'wings', uuid: backup, ignore } });

describe('a backup with pathological ignore rules', () => {
  it("keeps the neighbour's file listing answering while it runs, and archives as the rules say", async () => {
    // Several trees of the finding's folder path, each walked level by level against the rules.
    const folder = Array.from({ length: DEPTH }, () => 'a').join('/');
    expect(`${folder}/`.length).toBe(86);
    for (let tree = 0; tree < 4; tree += 1) {
      await mkdir(path.join(volume(GAME), `t${tree}`, folder), { recursive: true });
      await writeFile(path.join(volume(GAME), `t${tree}`, folder, 'deep.txt'), 'kept');
      await mkdir(path.join(volume(GAME), `t${tree}`, folder, 'b'), { recursive: true });
      await writeFile(path.join(volume(GAME), `t${tree}`, folder, 'b', 'ignored.txt'), 'left out');
    }
    await writeFile(path.join(volume(NEIGHBOUR), 'server.properties'), 'motd=neighbour');
    // The neighbour's page is open already: its first listing (opening its files) is not what is measured.
    const list = () => daemon.request('GET', `/api/servers/${NEIGHBOUR}/files/list-directory?directory=/`);
    expect((await list()).status).toBe(200);
    // The rule many times over (variants, so none is a repeat): real work for the matcher on every folder.
    const rules = Array.from({ length: RULES }, (_, index) =>
      index === 0 ? PATHOLOGICAL_RULE : `${PATHOLOGICAL_RULE.slice(0, -2)}c${index}/`,
    ).join('\n');

    const backup = randomUUID();
    expect((await startBackup(backup, rules)).status).toBe(202);
    const report = panel.waitForBackupReport(backup, 120_000);
    let slowest = 0;
    let whileRunning = 0;
    while (daemon.backups.isRunning(backup)) {
      const started = performance.now();
      const listing = await list();
      slowest = Math.max(slowest, performance.now() - started);
      expect(listing.status).toBe(200);
      expect((listing.body as { name: string }[]).map((entry) => entry.name)).toEqual(['server.properties']);
      if (daemon.backups.isRunning(backup)) whileRunning += 1;
    }
    expect((await report).successful).toBe(true);
    expect(whileRunning).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(LISTING_BOUND_MS);
    const names = (await listTarGz(path.join(daemon.dataDirectory, 'backups', `${backup}.tar.gz`))).map(
      (entry) => entry.name,
    );
    expect(names).toContain(`t0/${folder}/deep.txt`);
    expect(names.filter((name) => name.endsWith('ignored.txt'))).toEqual([]);
  }, 150_000);

  it('fails the backup, saying why on the console, when the rules are past the bounds', async () => {
    const said: string[] = [];
    daemon.manager.get(GAME)?.on('daemon message', (line: string) => said.push(line));
    const backup = randomUUID();
    const tooMany = Array.from({ length: IGNORE_LIMITS.rules + 1 }, (_, index) => `rule-${index}`).join('\n');
    expect((await startBackup(backup, tooMany)).status).toBe(202);
    expect(await panel.waitForBackupReport(backup)).toMatchObject({ successful: false });
    expect(said.some((line) => line.includes(`at most ${IGNORE_LIMITS.rules} are allowed`))).toBe(true);

    // A .pteroignore the game wrote is bounded the same way.
    await writeFile(path.join(volume(GAME), '.pteroignore'), `${'x'.repeat(IGNORE_LIMITS.ruleLength + 1)}\n`);
    const fromFile = randomUUID();
    expect((await startBackup(fromFile, '')).status).toBe(202);
    expect(await panel.waitForBackupReport(fromFile)).toMatchObject({ successful: false });
    expect(said.some((line) => line.includes('.pteroignore cannot be used: line 1 is'))).toBe(true);
  });
});
