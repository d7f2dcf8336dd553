import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildTarGz } from '@aerie/daemon/backups/testing-archive';
import {
  type DaemonProcess,
  processesRunning,
  startDaemonProcess,
  testDaemonEnv,
} from '@aerie/daemon/testing/daemon-process';
import {
  demoConfiguration,
  PANEL_TOKEN,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * kill -9 of a real daemon while a job that writes into a server's files is stopped just before its output would
 * be renamed into place (AERIE_TEST_PAUSE_JOB: a pause point, the kill is real); the next daemon must leave no
 * half-written file anywhere and say on the console that the job was interrupted.
 */
const UUID = '7e57ab1e-0000-4a11-8000-00000000cafe';
const BACKUP = '7e57ab1e-0000-4a11-8000-00000000b0b0';
const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };

let panel: PanelStandIn;
let dataDirectory: string;
let volume: string;
const daemons: DaemonProcess[] = [];

beforeEach(async () => {
  panel = await startPanelStandIn();
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-jobs-'));
  volume = path.join(dataDirectory, 'volumes', UUID);
  panel.servers.set(UUID, demoConfiguration(UUID));
});
afterEach(async () => {
  for (const daemon of daemons.splice(0)) daemon.process.kill('SIGKILL');
  await panel.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

function daemon(extra: Record<string, string> = {}): DaemonProcess {
  const started = startDaemonProcess(testDaemonEnv(panel.url, dataDirectory, extra));
  daemons.push(started);
  return started;
}

/** Every name under `directory`, as paths relative to it. */
async function tree(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String).sort();
}

const partials = async () => (await tree(volume)).filter((name) => name.includes('.aerie-partial-'));

/** Starts `path` on a daemon paused at `kind`'s rename, kills it with SIGKILL there, and boots a fresh one. */
async function interrupt(kind: string, request: (url: string) => Promise<unknown>): Promise<string> {
  const first = daemon({ AERIE_TEST_PAUSE_JOB: kind });
  const url = await first.listening();
  await setUp();
  void request(url).catch(() => undefined);
  // Paused: its output exists, only under a temporary name.
  await expect.poll(partials, { timeout: 15_000 }).toHaveLength(1);
  first.process.kill('SIGKILL');
  await first.exited;
  expect(await partials()).toHaveLength(1);

  const second = daemon();
  return second.listening();
}

let setUp: () => Promise<void> = async () => {};

const logs = async (url: string) =>
  ((await (await fetch(`${url}/api/servers/${UUID}/logs`, { headers })).json()) as { data: string[] }).data;

const post = (url: string, route: string, body: unknown) =>
  fetch(`${url}/api/servers/${UUID}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('a daemon killed in the middle of a job', { timeout: 90_000 }, () => {
  it('decompress: no half-extracted file under any name, the console says it was interrupted', async () => {
    setUp = async () => {
      const archive = await buildTarGz([
        { name: 'world/', type: 'directory' },
        { name: 'world/level.dat', data: 'x'.repeat(64 * 1024) },
        { name: 'world/region.mca', data: 'y'.repeat(64 * 1024) },
      ]);
      await writeFile(path.join(volume, 'world.tar.gz'), archive);
    };
    const url = await interrupt('decompress', (at) =>
      post(at, '/files/decompress', { root: '/', file: 'world.tar.gz' }),
    );
    expect(await partials()).toEqual([]);
    // The entry being written when the daemon died never appeared under its name.
    expect(await tree(volume)).toEqual(['world', 'world.tar.gz']);
    expect(await readdir(path.join(dataDirectory, 'jobs'))).toEqual([]);
    expect(await logs(url)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'An extraction was interrupted when the daemon stopped; 1 unfinished file was removed. Run it again.',
        ),
      ]),
    );
    // And a retry works.
    const retry = await post(url, '/files/decompress', { root: '/', file: 'world.tar.gz' });
    expect(retry.status).toBe(204);
    expect(await tree(volume)).toEqual(['world', 'world.tar.gz', 'world/level.dat', 'world/region.mca']);
  });

  it('archive: no truncated archive-….tar.gz is left in the folder', async () => {
    setUp = async () => {
      await mkdir(path.join(volume, 'world'), { recursive: true });
      await writeFile(path.join(volume, 'world', 'level.dat'), 'z'.repeat(256 * 1024));
    };
    const url = await interrupt('archive', (at) =>
      post(at, '/files/compress', { root: '/', files: ['world'] }),
    );
    expect(await tree(volume)).toEqual(['world', 'world/level.dat']);
    expect(await logs(url)).toEqual(
      expect.arrayContaining([expect.stringContaining('An archive was interrupted when the daemon stopped')]),
    );
  });

  it('restore: the next daemon removes the half-restored file and the panel hears of the restart', async () => {
    setUp = async () => {
      await writeFile(path.join(volume, 'server.properties'), 'motd=old');
      const backups = path.join(dataDirectory, 'backups');
      await mkdir(backups, { recursive: true });
      await writeFile(
        path.join(backups, `${BACKUP}.tar.gz`),
        await buildTarGz([{ name: 'server.properties', data: 'motd=from the backup' }]),
      );
    };
    const url = await interrupt('restore', (at) =>
      post(at, `/backup/${BACKUP}/restore`, { adapter: 'wings', truncate_directory: true }),
    );
    expect(await partials()).toEqual([]);
    // The truncate had run; the restored file was never renamed in: the folder is empty, not half-written.
    expect(await tree(volume)).toEqual([]);
    expect(await logs(url)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('A backup restore was interrupted when the daemon stopped'),
      ]),
    );
    // Booting, each daemon told the panel (which fails the restore it had recorded as running).
    expect(panel.resets).toBe(2);
  });

  it('install: the installer a killed daemon left is ended at boot, and the panel is told to fail it', async () => {
    // A script that never finishes on its own, found again by its unique sleep.
    const marker = String(400_000 + Math.floor(Math.random() * 100_000));
    const installing = '7e57ab1e-0000-4a11-8000-0000000001a5';
    panel.installScripts.set(installing, {
      container_image: 'debian',
      entrypoint: 'bash',
      script: `echo installing\nsleep ${marker}`,
    });
    const first = daemon();
    const url = await first.listening();
    // A server the panel creates now, as an admin does: the daemon installs it.
    panel.servers.set(installing, demoConfiguration(installing));
    const created = await fetch(`${url}/api/servers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ uuid: installing, start_on_completion: false }),
    });
    expect(created.status).toBeLessThan(300);
    await expect.poll(() => processesRunning(marker), { timeout: 20_000 }).toHaveLength(1);
    first.process.kill('SIGKILL');
    await first.exited;

    await daemon().listening();
    // Nothing of the half-done install runs on, and the panel heard the reset that marks it failed.
    await expect.poll(() => processesRunning(marker), { timeout: 20_000 }).toEqual([]);
    expect(panel.resets).toBe(2);
    expect(panel.installReports.filter((report) => report.body.successful)).toEqual([]);
  });

  it('backup: the partial file of a backup cut short is removed at boot, a finished backup stays', async () => {
    const backups = path.join(dataDirectory, 'backups');
    await mkdir(backups, { recursive: true });
    await writeFile(path.join(backups, `${BACKUP}.tar.gz`), 'a finished backup stays');
    await mkdir(volume, { recursive: true });
    await writeFile(path.join(volume, 'level.dat'), 'x'.repeat(256 * 1024));
    const first = daemon({ AERIE_TEST_PAUSE_JOB: 'backup' });
    const url = await first.listening();
    const partials = async () => (await readdir(backups)).filter((name) => name.endsWith('.part'));
    expect(
      (
        await post(url, '/backup', {
          adapter: 'wings',
          uuid: '7e57ab1e-0000-4a11-8000-00000000b0b1',
          ignore: '',
        })
      ).status,
    ).toBe(202);
    // Written in full, not yet kept: the daemon dies here.
    await expect.poll(partials, { timeout: 15_000 }).toHaveLength(1);
    first.process.kill('SIGKILL');
    await first.exited;

    await daemon().listening();
    expect(await readdir(backups)).toEqual([`${BACKUP}.tar.gz`]);
    // The panel heard the reset that marks the backup failed (tested on the panel's side).
    expect(panel.resets).toBe(2);
  });
});
