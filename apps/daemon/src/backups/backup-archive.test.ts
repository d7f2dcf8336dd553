import { execFileSync } from 'node:child_process';
import {
  appendFile,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ArchiveItem } from '@aerie/daemon/fs/archive-writer';
import { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBackupFile } from './backup-archive';
import { BackupIgnoreRules } from './ignore-rules';
import { listTarGz, sha1 } from './testing-archive';

let root: string;
let out: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'aerie-backup-root-'));
  out = await mkdtemp(path.join(tmpdir(), 'aerie-backup-out-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
});

/** The items with a hook run on a file right after the writer opened it (or, for `before`, before it opens it). */
async function* meddle(
  items: AsyncIterable<ArchiveItem>,
  hooks: Record<string, { before?: () => Promise<void>; after?: () => Promise<void> }>,
): AsyncGenerator<ArchiveItem> {
  for await (const item of items) {
    const hook = hooks[item.name];
    const open = item.open;
    if (hook && open) {
      item.open = async () => {
        await hook.before?.();
        const opened = await open();
        await hook.after?.();
        return opened;
      };
    }
    yield item;
  }
}

describe('writing a backup archive', () => {
  it('keeps files, their folders, empty folders and links as links; drops pipes and ignored paths', async () => {
    await mkdir(path.join(root, 'world/region'), { recursive: true });
    await mkdir(path.join(root, 'empty'));
    await mkdir(path.join(root, 'logs'));
    await writeFile(path.join(root, 'server.properties'), 'motd=hi\n');
    await writeFile(path.join(root, 'world/region/r.0.0.mca'), Buffer.alloc(70_000, 7));
    await writeFile(path.join(root, 'logs/latest.log'), 'noise');
    await writeFile(path.join(root, 'logs/keep.log'), 'keep me');
    await writeFile(path.join(root, 'cache.tmp'), 'x');
    await symlink('/etc/passwd', path.join(root, 'passwd-link'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const files = await ServerFilesystem.open({ root });
    const destination = path.join(out, 'b.tar.gz');
    const rules = new BackupIgnoreRules('logs\n!logs/keep.log\n*.tmp');
    const written = await writeBackupFile(files.archives.backupItems(rules), destination);

    const bytes = await readFile(destination);
    expect(written).toEqual({ checksum: sha1(bytes), size: bytes.length });
    expect((await stat(destination)).mode & 0o777).toBe(0o600);
    const entries = await listTarGz(bytes);
    expect(entries.map((e) => `${e.type} ${e.name}`)).toEqual([
      'directory empty',
      'directory logs',
      'file logs/keep.log',
      'symlink passwd-link',
      'file server.properties',
      'directory world',
      'directory world/region',
      'file world/region/r.0.0.mca',
    ]);
    expect(entries.find((e) => e.name === 'passwd-link')?.linkname).toBe('/etc/passwd');
    expect(
      entries.find((e) => e.name === 'world/region/r.0.0.mca')?.data.equals(Buffer.alloc(70_000, 7)),
    ).toBe(true);
    // The gzip level is 1 (Wings' best_speed): byte 8 of the header says "fastest" (4).
    expect(bytes[8]).toBe(4);
  });

  it('does not fail on files that grow, shrink or disappear while the backup runs', async () => {
    await writeFile(path.join(root, 'grow.log'), Buffer.alloc(300_000, 1));
    await writeFile(path.join(root, 'shrink.dat'), Buffer.alloc(300_000, 2));
    await writeFile(path.join(root, 'gone.txt'), 'soon gone');
    await writeFile(path.join(root, 'stay.txt'), 'stays');
    const files = await ServerFilesystem.open({ root });
    const destination = path.join(out, 'b.tar.gz');
    const items = meddle(files.archives.backupItems(new BackupIgnoreRules('')), {
      'grow.log': { after: () => appendFile(path.join(root, 'grow.log'), Buffer.alloc(500_000, 9)) },
      'shrink.dat': { after: () => truncate(path.join(root, 'shrink.dat'), 1000) },
      'gone.txt': { before: () => unlink(path.join(root, 'gone.txt')) },
    });
    const written = await writeBackupFile(items, destination);
    expect(written.size).toBe((await stat(destination)).size);

    const entries = await listTarGz(destination);
    expect(entries.map((e) => e.name)).toEqual(['grow.log', 'shrink.dat', 'stay.txt']);
    const grow = entries.find((e) => e.name === 'grow.log');
    // What was there when it was opened, with that size in its header.
    expect(grow?.size).toBe(300_000);
    expect(grow?.data.equals(Buffer.alloc(300_000, 1))).toBe(true);
    const shrink = entries.find((e) => e.name === 'shrink.dat');
    expect(shrink?.size).toBe(300_000);
    expect(shrink?.data.subarray(0, 1000).equals(Buffer.alloc(1000, 2))).toBe(true);
    expect(shrink?.data.subarray(1000).equals(Buffer.alloc(299_000, 0))).toBe(true);
  });

  it('never replaces an existing file at the destination', async () => {
    await writeFile(path.join(root, 'a.txt'), 'a');
    const destination = path.join(out, 'taken.tar.gz');
    await writeFile(destination, 'keep');
    const files = await ServerFilesystem.open({ root });
    await expect(
      writeBackupFile(files.archives.backupItems(new BackupIgnoreRules('')), destination),
    ).rejects.toThrow(/EEXIST/);
    expect(await readFile(destination, 'utf8')).toBe('keep');
  });
});
