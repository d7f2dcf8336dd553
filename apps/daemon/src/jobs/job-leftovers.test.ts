import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobJournal, type JobRecord } from './job-journal';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'aerie-leftovers-'));
  root = path.join(base, 'volume');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'world', 'region'), { recursive: true });
  await mkdir(outside);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('what an interrupted job left', () => {
  it('is found in the journal and removed at every depth, and nothing else is', async () => {
    const journal = new JobJournal(path.join(base, 'jobs'));
    const job = await journal.begin('00000000-0000-4000-8000-000000000001', 'decompress', {
      directory: ['world'],
      recursive: true,
    });
    await writeFile(path.join(root, 'world', `${job.prefix}-0`), 'half');
    await writeFile(path.join(root, 'world', 'region', `${job.prefix}-7`), 'half');
    await writeFile(path.join(root, 'world', 'level.dat'), 'whole');
    await writeFile(path.join(root, `${job.prefix}-1`), 'outside the job folder');
    // The game swaps a folder for a link to the host: the sweep never follows it.
    await writeFile(path.join(outside, `${job.prefix}-2`), 'the host');
    await symlink(outside, path.join(root, 'world', 'escape'));

    const [record] = await journal.interrupted();
    expect(record).toMatchObject({
      kind: 'decompress',
      leftovers: { directory: ['world'], recursive: true },
    });
    const files = await ServerFilesystem.open({ root });
    expect(await files.archives.removeLeftovers((record as JobRecord).leftovers)).toBe(2);
    expect((await readdir(path.join(root, 'world'))).sort()).toEqual(['escape', 'level.dat', 'region']);
    expect(await readdir(path.join(root, 'world', 'region'))).toEqual([]);
    expect(await readdir(outside)).toEqual([`${job.prefix}-2`]);
    expect(await readdir(root)).toContain(`${job.prefix}-1`);
    await journal.forget((record as JobRecord).id);
    expect(await journal.interrupted()).toEqual([]);
  });

  it('drops a journal entry it cannot read, and one naming a prefix that is not its own', async () => {
    const directory = path.join(base, 'jobs');
    await mkdir(directory);
    await writeFile(path.join(directory, 'a1b2c3d4e5f60718.json'), '{"id":');
    await writeFile(
      path.join(directory, '0123456789abcdef.json'),
      JSON.stringify({
        id: '0123456789abcdef',
        kind: 'archive',
        server: 'x',
        startedAt: '',
        leftovers: { directory: [], prefix: '', recursive: true },
      }),
    );
    expect(await new JobJournal(directory).interrupted()).toEqual([]);
    expect(await readdir(directory)).toEqual([]);
  });

  it('ends a job that finished: nothing is left to find', async () => {
    const journal = new JobJournal(path.join(base, 'jobs'));
    const job = await journal.begin('s', 'archive', { directory: [], recursive: false });
    await job.end();
    expect(await journal.interrupted()).toEqual([]);
  });
});
