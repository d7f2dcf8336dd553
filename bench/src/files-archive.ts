import { spawn } from 'node:child_process';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import { timeMs } from './measure';

/** Runs a command and rejects with its stderr when it fails. */
export function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

export interface CompressRound {
  serverFilesystemMs: number;
  serverFilesystemBytes: number;
  tarMs: number;
  tarBytes: number;
}

/**
 * One round of `ServerFilesystem.archives.compress('/', [tree])` against `tar -czf` (both gzip level 6) of the same tree.
 * The daemon's archive is kept at `keepAs` (for a later check); the tar archive stays at `tarArchive`.
 */
export async function compressRound(
  files: ServerFilesystem,
  tree: string,
  tarArchive: string,
  keepAs: string,
): Promise<CompressRound> {
  await rm(tarArchive, { force: true });
  const tarMs = await timeMs(() => run('tar', ['-czf', tarArchive, '-C', files.root, tree]));
  let archiveName = '';
  const serverFilesystemMs = await timeMs(async () => {
    archiveName = (await files.archives.compress('/', [tree], 'tar.gz')).name;
  });
  const made = path.join(files.root, archiveName);
  await rename(made, keepAs);
  return {
    serverFilesystemMs,
    serverFilesystemBytes: (await stat(keepAs)).size,
    tarMs,
    tarBytes: (await stat(tarArchive)).size,
  };
}

export interface DecompressRound {
  serverFilesystemMs: number;
  tarMs: number;
  entries: number;
  bytes: number;
}

/**
 * Extracts the same archive twice: with `ServerFilesystem.decompress` into `/extract` of the jail, and with
 * `tar -xzf` into a sibling directory outside it. Both targets are removed first, so each round writes anew.
 */
export async function decompressRound(
  files: ServerFilesystem,
  archive: string,
  tarTarget: string,
): Promise<DecompressRound> {
  const jailTarget = path.join(files.root, 'extract');
  await rm(jailTarget, { recursive: true, force: true });
  await rm(tarTarget, { recursive: true, force: true });
  await mkdir(jailTarget);
  await mkdir(tarTarget);
  await rename(archive, path.join(jailTarget, 'input.tar.gz'));
  let entries = 0;
  let bytes = 0;
  const serverFilesystemMs = await timeMs(async () => {
    const result = await files.archives.decompress('/extract', 'input.tar.gz');
    entries = result.entries;
    bytes = result.bytes;
  });
  // The archive goes back where it was: the next round (and tar now) read the very same file.
  await rename(path.join(jailTarget, 'input.tar.gz'), archive);
  const tarMs = await timeMs(() => run('tar', ['-xzf', archive, '-C', tarTarget]));
  return { serverFilesystemMs, tarMs, entries, bytes };
}
