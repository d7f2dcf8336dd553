import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import yazl from 'yazl';
import { DiskQuota } from './disk-quota';

/** A temporary `root` (the server) next to an `outside` directory full of things that must never change. */
export interface Sandbox {
  base: string;
  root: string;
  outside: string;
  /** Fingerprint of everything in `outside`, to compare before and after an attack. */
  outsideHash(): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeSandbox(): Promise<Sandbox> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'aerie-fs-'));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(path.join(outside, 'nested'), { recursive: true });
  await fs.writeFile(path.join(outside, 'secret.txt'), 'TOP SECRET host file\n', { mode: 0o600 });
  await fs.writeFile(path.join(outside, 'nested', 'keys'), 'ssh-ed25519 AAAA host\n', { mode: 0o644 });
  await fs.writeFile(path.join(base, 'sibling.txt'), 'next to the root\n');
  return {
    base,
    root,
    outside,
    // The base's own files (outside, sibling.txt) but not the root: everything an escape could touch.
    outsideHash: async () =>
      hashTree(base, (relative) => relative === 'root' || relative.startsWith('root/')),
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}

/**
 * Paths, types, modes, sizes, contents and link targets of a tree, hashed; with `times`, modification times too.
 * Links are not followed.
 */
export async function hashTree(
  directory: string,
  skip: (relative: string) => boolean = () => false,
  times = true,
): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (relative: string): Promise<void> => {
    const full = path.join(directory, relative);
    const stats = await fs.lstat(full);
    hash.update(`${relative}\0${stats.mode}\0${stats.size}\0${times ? stats.mtimeMs : ''}\0`);
    if (stats.isSymbolicLink()) hash.update(await fs.readlink(full));
    else if (stats.isFile()) hash.update(await fs.readFile(full));
    else if (stats.isDirectory()) {
      for (const child of (await fs.readdir(full)).sort()) {
        const next = relative === '' ? child : `${relative}/${child}`;
        if (!skip(next)) await visit(next);
      }
    }
  };
  await visit('');
  return hash.digest('hex');
}

/** A quota that keeps its own running total, as the server manager would. */
export function memoryQuota(limitBytes: number, usedBytes = 0): DiskQuota & { used: number } {
  const state = { used: usedBytes };
  const quota = new DiskQuota({
    limitBytes: () => limitBytes,
    usedBytes: () => state.used,
    currentBytes: () => state.used,
    add: (delta: number) => {
      state.used += delta;
    },
  });
  return Object.defineProperty(quota, 'used', { get: () => state.used }) as DiskQuota & { used: number };
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface TarEntrySpec {
  name: string;
  type?: 'file' | 'directory' | 'symlink' | 'link';
  content?: string | Buffer;
  linkname?: string;
  mode?: number;
}

/** A tar archive built entry by entry, names and links exactly as given (so hostile ones too). */
export async function buildTar(entries: readonly TarEntrySpec[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const header = { name: entry.name, type, mode: entry.mode ?? (type === 'directory' ? 0o755 : 0o644) };
    if (type === 'file') pack.entry(header, entry.content ?? '');
    else pack.entry({ ...header, linkname: entry.linkname });
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(pack)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface ZipEntrySpec {
  name: string;
  content?: string | Buffer;
  directory?: boolean;
  /** Unix mode with the file type bits (0o120777 for a symlink, whose content is then its target). */
  mode?: number;
  compress?: boolean;
}

/**
 * A zip archive. yazl refuses hostile names, so each name is written as a same-length placeholder and swapped
 * for the real name in the finished bytes (file names are not covered by the CRC).
 */
export async function buildZip(entries: readonly ZipEntrySpec[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const swaps: [string, string][] = [];
  entries.forEach((entry, index) => {
    const placeholder = `p${String(index).padStart(entry.name.length - 1, 'q')}`.slice(0, entry.name.length);
    const safe = /(^\/)|(^|\/)\.\.(\/|$)|\\/.test(entry.name) ? placeholder : entry.name;
    if (safe !== entry.name) swaps.push([safe, entry.name]);
    if (entry.directory) zip.addEmptyDirectory(safe);
    else {
      const options: Partial<yazl.Options> = { compress: entry.compress ?? true };
      if (entry.mode !== undefined) options.mode = entry.mode;
      zip.addBuffer(Buffer.from(entry.content ?? ''), safe, options);
    }
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes: Buffer = Buffer.concat(chunks);
  for (const [from, to] of swaps) bytes = replaceAll(bytes, Buffer.from(from), Buffer.from(to));
  return bytes;
}

function replaceAll(haystack: Buffer, from: Buffer, to: Buffer): Buffer {
  const copy = Buffer.from(haystack);
  for (let index = copy.indexOf(from); index !== -1; index = copy.indexOf(from, index + to.length)) {
    to.copy(copy, index);
  }
  return copy;
}
