import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilesystemError } from './filesystem-error';
import { makeSandbox, readAll, type Sandbox } from './fs-test-support';
import { ServerFilesystem } from './server-filesystem';

/**
 * CVE-2024-27102: a path checked and then opened can be swapped for a symlink in between. Another process flips
 * names between a real directory/file and a symlink to the sentinel directory as fast as it can (each flip an
 * atomic rename), while we hammer the operations; no read may ever return outside content and nothing outside
 * may change.
 */

let sandbox: Sandbox;
let files: ServerFilesystem;
let swapper: ChildProcess | undefined;
let before: string;

/** Flips `name` in `directory` between the real thing (parked as `name.real`) and a link (parked as `name.link`). */
const SWAPPER = `
const fs = require('node:fs');
const [directory, name] = process.argv.slice(1);
const at = (n) => directory + '/' + n;
const end = Date.now() + 20000;
while (Date.now() < end) {
  try {
    fs.renameSync(at(name), at(name + '.real'));
    fs.renameSync(at(name + '.link'), at(name));
    fs.renameSync(at(name), at(name + '.link'));
    fs.renameSync(at(name + '.real'), at(name));
  } catch {}
}
`;

/** Starts the flipping and returns once it is seen happening (a loaded machine may be slow to start node). */
async function startSwapping(name: string): Promise<void> {
  swapper = spawn(process.execPath, ['-e', SWAPPER, sandbox.root, name], { stdio: 'ignore' });
  const parked = path.join(sandbox.root, `${name}.real`);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (
      await fs.lstat(parked).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error('the swapper never started');
}

async function hammer(
  durationMs: number,
  attempt: () => Promise<void>,
): Promise<{ ok: number; refused: number }> {
  const counts = { ok: 0, refused: 0 };
  const end = Date.now() + durationMs;
  while (Date.now() < end) {
    try {
      await attempt();
      counts.ok += 1;
    } catch (error) {
      if (!(error instanceof FilesystemError)) throw error;
      counts.refused += 1;
    }
  }
  return counts;
}

beforeEach(async () => {
  sandbox = await makeSandbox();
  await fs.mkdir(path.join(sandbox.root, 'd'));
  await fs.writeFile(path.join(sandbox.root, 'd', 'secret.txt'), 'inside');
  await fs.symlink(sandbox.outside, path.join(sandbox.root, 'd.link'));
  await fs.writeFile(path.join(sandbox.root, 'f'), 'inside');
  await fs.symlink(path.join(sandbox.outside, 'secret.txt'), path.join(sandbox.root, 'f.link'));
  files = await ServerFilesystem.open({ root: sandbox.root });
  before = await sandbox.outsideHash();
});

afterEach(async () => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  try {
    expect(await sandbox.outsideHash()).toBe(before);
  } finally {
    await sandbox.cleanup();
  }
});

describe('a directory swapped for a symlink during operations', () => {
  it('never lets a read, a listing or a write reach outside', { timeout: 20_000 }, async () => {
    await startSwapping('d');
    const reads = await hammer(1500, async () => {
      const contents = await files.readFile('d/secret.txt');
      expect(await readAll(contents.stream)).toBe('inside');
    });
    const listings = await hammer(1000, async () => {
      const names = (await files.list('d')).map((entry) => entry.name);
      expect(names).not.toContain('nested');
    });
    const stats = await hammer(500, async () => {
      expect((await files.stat('d/secret.txt')).size).toBe('inside'.length);
    });
    // The race really happened both ways: some attempts saw the directory, some the link.
    for (const counts of [reads, listings, stats]) {
      expect(counts.ok).toBeGreaterThan(0);
      expect(counts.refused).toBeGreaterThan(0);
    }
    // Last, as a write may create a fresh `d` in the instant the name is missing (inside the root, harmless)
    // and so end the swapping: CVE-2023-25152 was a write that created files on the host through a link.
    const writes = await hammer(1000, async () => {
      await files.writeFile('d/planted.txt', 'pwned');
    });
    expect(writes.ok + writes.refused).toBeGreaterThan(0);
    await expect(fs.lstat(path.join(sandbox.outside, 'planted.txt'))).rejects.toThrow();
  });
});

describe('a file swapped for a symlink during operations', () => {
  it('never reads, copies or chmods the link target', { timeout: 20_000 }, async () => {
    await startSwapping('f');
    const reads = await hammer(1500, async () => {
      expect(await readAll((await files.readFile('f')).stream)).toBe('inside');
    });
    const chmods = await hammer(1000, async () => {
      await files.chmod('/', [{ file: 'f', mode: '777' }]);
    });
    const copies = await hammer(1000, async () => {
      const copy = await files.copy('f');
      expect(await fs.readFile(path.join(sandbox.root, copy.name), 'utf8')).toBe('inside');
      await fs.unlink(path.join(sandbox.root, copy.name));
    });
    for (const counts of [reads, chmods, copies]) {
      expect(counts.ok).toBeGreaterThan(0);
      expect(counts.refused).toBeGreaterThan(0);
    }
  });
});
