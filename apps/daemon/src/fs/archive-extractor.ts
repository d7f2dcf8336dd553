import { constants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { linkStaysInside } from './archive-links';
import {
  type ArchiveEntry,
  type ArchiveEntryHeader,
  type ArchiveKind,
  isSupported,
  tarEntries,
  tarStreamEntries,
  zipEntries,
  zipEntryCount,
} from './archive-reader';
import { ByteLimit } from './byte-limit';
import type { Denylist } from './denylist';
import type { DiskQuota } from './disk-quota';
import { ExtractDirectories } from './extract-directories';
import { errnoOf, FilesystemError, isDiskFull, isFilesystemError } from './filesystem-error';
import type { DirectoryHandle, Jail } from './jail';
import { pathComponents } from './jail-path';
import { writeAll } from './write-all';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NOCTTY } = constants;

/** Bounds on what one decompress may produce (Wings had none besides a summed-size check). */
export interface ExtractLimits {
  maxEntries: number;
  /** Absolute cap on the summed uncompressed size, whatever the quota says. */
  maxTotalBytes: number;
  /** Largest allowed uncompressed ÷ archive size … */
  maxRatio: number;
  /** … applied once the uncompressed total passes this (small files of zeros are legitimately very compressible). */
  ratioFloorBytes: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 50 * 1024 ** 3,
  maxRatio: 250,
  ratioFloorBytes: 256 * 1024 ** 2,
};

/**
 * A backup being restored rather than an archive decompressed: links are made (those that stay inside, see
 * archive-links.ts), there is no ratio or entry bound of the files API (the archive is the daemon's own, bounded by
 * the room), and `beforeWrite` (the truncate) runs only once the pre-scan accepted the whole archive.
 */
/** The job's temporary names (see the daemon's job journal) and its crash-test pause point. */
export interface TemporaryNames {
  prefix: string;
  checkpoint(): Promise<void>;
}

export interface RestoreOptions {
  /** Bytes the archive may hold: the disk limit or the node's free space, counting what `beforeWrite` frees. */
  roomBytes: number;
  beforeWrite?: () => Promise<void>;
}

/**
 * What a restore into `root` may write: the server's disk limit less what is used and promised (all of it is freed
 * first when `truncating`), and never more than the node's disk has free (plus what the truncate frees), so a
 * restore that cannot fit is refused before anything is removed.
 */
export async function restoreRoomBytes(quota: DiskQuota, root: string, truncating: boolean): Promise<number> {
  const used = await quota.usedBytes();
  const freed = truncating ? used : 0;
  const disk = await fs.statfs(root);
  const free = disk.bavail * disk.bsize + freed;
  const limit = quota.limitBytes;
  if (limit <= 0) return free;
  return Math.max(0, Math.min(free, limit - used - quota.reservedBytes + freed));
}

/** Entries one restore may hold (a backup of more files than this is not expected from a game server). */
export const RESTORE_MAX_ENTRIES = 5_000_000;

export interface ExtractResult {
  /** Files and directories written. */
  entries: number;
  bytes: number;
  /** Entries left out, with why (denylisted, symlinks, special files, names taken by a link or directory). */
  skipped: { name: string; reason: string }[];
}

interface CheckedEntry {
  components: string[];
  header: ArchiveEntryHeader;
  skip?: string;
  /** A restore's link: made once every file is written, so no entry is ever written through it. */
  link?: string;
}

/**
 * Checks one entry against the jail and the limits. Unsafe names and links refuse the whole archive: absolute
 * names, `..` that leaves the root, symlinks whose target leaves the root (a later entry could write through them),
 * hard links (they could alias a file outside). Symlinks that stay inside are not materialised (as Wings).
 */
class EntryChecker {
  count = 0;
  total = 0;
  /** A restore's links and the folders its entries lie in: an entry below a link of the archive is refused. */
  readonly #links = new Set<string>();
  readonly #folders = new Set<string>();

  constructor(
    private readonly limits: ExtractLimits,
    private readonly base: readonly string[],
    private readonly makeLinks = false,
  ) {}

  /** After the pre-scan: refuses an archive where an entry would be written through one of its own links. */
  assertNothingBelowLinks(): void {
    for (const link of this.#links) {
      if (this.#folders.has(link)) {
        throw new FilesystemError('EARCHIVE', `The archive entry "${link}" is a link with entries below it.`);
      }
    }
  }

  #noteFolders(components: readonly string[]): void {
    if (!this.makeLinks) return;
    for (let length = components.length - 1; length > 0; length -= 1) {
      const key = components.slice(0, length).join('/');
      if (this.#folders.has(key)) return;
      this.#folders.add(key);
    }
  }

  check(header: ArchiveEntryHeader): CheckedEntry {
    this.count += 1;
    if (this.count > this.limits.maxEntries) {
      throw new FilesystemError(
        'ETOOMANY',
        `The archive contains more than ${this.limits.maxEntries} entries and cannot be extracted.`,
      );
    }
    const unsafe = (why: string) =>
      new FilesystemError('EARCHIVE', `The archive entry "${header.name}" ${why}.`);
    if (header.name.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(header.name))
      throw unsafe('has an absolute path');
    let relative: string[];
    try {
      relative = pathComponents(header.name);
    } catch {
      throw unsafe("points outside of the server's directory");
    }
    const components = [...this.base, ...relative];
    if (header.type === 'hardlink') throw unsafe('is a hard link, which cannot be extracted safely');
    this.#noteFolders(components);
    if (header.type === 'symlink' && this.makeLinks) {
      const target = header.linkname ?? '';
      if (relative.length === 0 || !linkStaysInside(components, target)) {
        throw unsafe("is a link pointing outside of the server's directory");
      }
      this.#links.add(components.join('/'));
      return { components, header, link: target };
    }
    if (header.type === 'symlink') {
      const target = header.linkname ?? '';
      if (target === '' || target.startsWith('/')) throw unsafe('is a link pointing outside of the archive');
      try {
        pathComponents([...components.slice(0, -1), target].join('/'));
      } catch {
        throw unsafe("is a link pointing outside of the server's directory");
      }
      return { components, header, skip: 'symbolic links are not extracted' };
    }
    if (header.type === 'other') return { components, header, skip: 'special files are not extracted' };
    if (relative.length === 0) return { components, header, skip: 'empty name' };
    if (header.type === 'file') {
      this.total += header.size;
      if (this.total > this.limits.maxTotalBytes) throw new FilesystemError('ETOOBIG');
    }
    return { components, header };
  }
}

/**
 * Extracts the archive open as `handle` into the directory `base` (components below the root). First a pre-scan
 * reads only headers and refuses the archive before anything is written (names, links, count, size, ratio,
 * quota); then the extraction re-checks every entry and caps every byte, so an archive changed in between or a
 * header that lies cannot get past the limits.
 */
export async function extractArchive(options: {
  jail: Jail;
  handle: FileHandle;
  kind: ArchiveKind;
  archiveBytes: number;
  base: readonly string[];
  denylist: Denylist;
  quota: DiskQuota;
  limits: ExtractLimits;
  restore?: RestoreOptions;
  /**
   * The names every file is written under until it is whole (then renamed over its own name): a crash leaves only
   * such names, which the daemon's job journal removes at boot, never half a file under the archive's name.
   */
  temporary: TemporaryNames;
}): Promise<ExtractResult> {
  const { jail, handle, kind, archiveBytes, base, denylist, quota, restore, temporary } = options;
  // A denylist past its bounds refuses every entry: said before anything is written (or a restore truncates).
  denylist.assertUsable();
  if (!(await isSupported(kind))) throw new FilesystemError('EUNSUPPORTED');
  const limits: ExtractLimits =
    restore === undefined
      ? options.limits
      : {
          maxEntries: RESTORE_MAX_ENTRIES,
          maxTotalBytes: restore.roomBytes,
          maxRatio: Number.POSITIVE_INFINITY,
          ratioFloorBytes: Number.POSITIVE_INFINITY,
        };

  const room = restore === undefined ? await quota.remainingBytes() : restore.roomBytes;
  // The decompressed stream may exceed the entries' data by headers and padding, not by more.
  const streamCap = (declared: number) => declared + 1024 * 1024 + 1024 * limits.maxEntries;
  const entries = (withData: boolean, cap: number) =>
    kind === 'zip'
      ? zipEntries(handle, withData)
      : tarEntries(handle, kind, new ByteLimit(cap, () => new FilesystemError('ETOOBIG')));

  if (kind === 'zip' && (await zipEntryCount(handle)) > limits.maxEntries) {
    throw new FilesystemError(
      'ETOOMANY',
      `The archive contains more than ${limits.maxEntries} entries and cannot be extracted.`,
    );
  }
  // The most the entries may add up to; the pre-scan's decompression stops a little past it, so a stream of
  // zeros behind a tiny archive costs bounded CPU rather than running until the absolute cap.
  const allowed = Math.min(
    limits.maxTotalBytes,
    room,
    Math.max(limits.ratioFloorBytes, archiveBytes * limits.maxRatio),
  );
  const makeLinks = restore !== undefined;
  const scan = new EntryChecker(limits, base, makeLinks);
  for await (const entry of entries(false, streamCap(allowed))) scan.check(entry.header);
  scan.assertNothingBelowLinks();
  if (scan.total > limits.ratioFloorBytes && scan.total / Math.max(archiveBytes, 1) > limits.maxRatio) {
    throw new FilesystemError('ETOOBIG');
  }
  // The whole archive is known to be acceptable: only now may a restore remove the current files.
  await restore?.beforeWrite?.();
  // Held for the whole extraction: parallel extractions (and writes) cannot share the same free space.
  const reservation = await quota.reserve(scan.total);

  const check = new EntryChecker({ ...limits, maxTotalBytes: scan.total }, base, makeLinks);
  const result: ExtractResult = { entries: 0, bytes: 0, skipped: [] };
  const directories = new ExtractDirectories(jail);
  const links: CheckedEntry[] = [];
  try {
    for await (const entry of entries(true, streamCap(scan.total))) {
      const checked = check.check(entry.header);
      if (checked.link !== undefined) {
        links.push(checked);
        continue;
      }
      const written = await writeEntry(directories, denylist, checked, entry, result, temporary);
      result.bytes += written;
    }
    check.assertNothingBelowLinks();
    for (const link of links) await makeLink(directories, denylist, link, result, temporary.prefix);
  } finally {
    // What was written stays, even when a later entry failed.
    reservation.commit(result.bytes);
    await directories.closeAll();
  }
  return result;
}

/**
 * Extracts a tar.gz read once from `stream` (a transfer, as it arrives) into `base`, as a restore does: every entry is
 * checked when it comes (names, links leading out, hard links, count, the total against `roomBytes`), files are
 * written under temporary names and renamed when whole, links made last as stored. There is no pre-scan (a stream
 * cannot be read twice), so a refusal part-way leaves what was already written: the caller extracts into a folder
 * of its own and removes it whole on failure.
 */
export async function extractStream(options: {
  jail: Jail;
  stream: Readable;
  base: readonly string[];
  denylist: Denylist;
  quota: DiskQuota;
  roomBytes: number;
  temporary: TemporaryNames;
}): Promise<ExtractResult> {
  const { jail, stream, base, denylist, quota, roomBytes, temporary } = options;
  const limits: ExtractLimits = {
    maxEntries: RESTORE_MAX_ENTRIES,
    maxTotalBytes: roomBytes,
    maxRatio: Number.POSITIVE_INFINITY,
    ratioFloorBytes: Number.POSITIVE_INFINITY,
  };
  const cap = roomBytes + 1024 * 1024 + 1024 * limits.maxEntries;
  const check = new EntryChecker(limits, base, true);
  const result: ExtractResult = { entries: 0, bytes: 0, skipped: [] };
  const directories = new ExtractDirectories(jail);
  const links: CheckedEntry[] = [];
  try {
    const entries = tarStreamEntries(
      stream,
      'gzip',
      new ByteLimit(cap, () => new FilesystemError('ETOOBIG')),
    );
    for await (const entry of entries) {
      const checked = check.check(entry.header);
      if (checked.link !== undefined) {
        links.push(checked);
        if (entry.stream !== undefined) for await (const _ of entry.stream) void _;
        continue;
      }
      result.bytes += await writeEntry(directories, denylist, checked, entry, result, temporary);
    }
    check.assertNothingBelowLinks();
    for (const link of links) await makeLink(directories, denylist, link, result, temporary.prefix);
  } finally {
    quota.add(result.bytes);
    await directories.closeAll();
  }
  return result;
}

/**
 * Makes a restore's link as the backup stored it. Made under a temporary name and renamed over the entry's name, so
 * a file or link of that name is replaced at once; a folder of that name stays (the link is skipped).
 */
async function makeLink(
  directories: ExtractDirectories,
  denylist: Denylist,
  checked: CheckedEntry,
  result: ExtractResult,
  temporaryPrefix: string,
): Promise<void> {
  const { components, header } = checked;
  if (denylist.matches(components)) {
    result.skipped.push({ name: header.name, reason: 'present in the egg denylist' });
    return;
  }
  const name = components.at(-1) as string;
  const directory: DirectoryHandle = await directories.get(components.slice(0, -1));
  const temporary = `${temporaryPrefix}-${result.entries}`;
  await fs.symlink(checked.link as string, directory.child(temporary));
  try {
    await fs.rename(directory.child(temporary), directory.child(name));
  } catch (error) {
    await fs.unlink(directory.child(temporary)).catch(() => undefined);
    const code = errnoOf(error);
    if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
      result.skipped.push({ name: header.name, reason: 'a directory of that name exists' });
      return;
    }
    throw error;
  }
  await directories.jail.ownName(directory, name);
  if (header.mtime !== undefined) {
    await fs.lutimes(directory.child(name), header.mtime, header.mtime).catch(() => undefined);
  }
  result.entries += 1;
}

async function writeEntry(
  directories: ExtractDirectories,
  denylist: Denylist,
  checked: CheckedEntry,
  entry: ArchiveEntry,
  result: ExtractResult,
  names: TemporaryNames,
): Promise<number> {
  const { components, header } = checked;
  const skip = async (reason: string) => {
    result.skipped.push({ name: header.name, reason });
    // Read past the data we leave out (bounded by the declared size), so the archive reader moves on cleanly.
    if (entry.stream !== undefined) for await (const _ of entry.stream) void _;
    return 0;
  };
  if (checked.skip !== undefined) return skip(checked.skip);
  if (denylist.matches(components)) return skip('present in the egg denylist');
  if (header.type === 'directory') {
    await directories.get(components);
    result.entries += 1;
    return 0;
  }
  const parent = components.slice(0, -1);
  const name = components.at(-1) as string;
  const mode = header.mode !== undefined && (header.mode & 0o777) !== 0 ? header.mode & 0o777 : 0o644;
  const temporary = `${names.prefix}-${result.entries}`;
  // Written under a temporary name and renamed over the entry's name only when whole: an interrupted extraction
  // never leaves half a file under a name the user knows (and an existing file's other hard links are untouched).
  const create = async () => {
    const directory = await directories.get(parent);
    const existing = await fs.lstat(directory.child(name)).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw error;
    });
    const file =
      existing?.isSymbolicLink() || existing?.isDirectory()
        ? undefined
        : await fs.open(
            directory.child(temporary),
            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY,
            mode,
          );
    return { directory, existing, file };
  };
  let created: Awaited<ReturnType<typeof create>>;
  try {
    created = await create().catch(async (error: unknown) => {
      // The kept-open directory was removed meanwhile: walk to it (and make it) afresh, once.
      if (errnoOf(error) !== 'ENOENT') throw error;
      await directories.forget(parent);
      return create();
    });
  } catch (error) {
    if (errnoOf(error) === 'EISDIR') return skip('a directory of that name exists');
    throw error;
  }
  const { directory, existing, file } = created;
  if (file === undefined) {
    return skip(
      existing?.isSymbolicLink() ? 'a symbolic link of that name exists' : 'a directory of that name exists',
    );
  }
  let bytes: number;
  try {
    await directories.jail.own(file);
    // Never more than the header declared, whatever the data stream carries.
    bytes = await writeAll(
      file,
      entry.stream as AsyncIterable<Uint8Array>,
      header.size,
      () => new FilesystemError('ETOOBIG'),
    );
    if (header.mtime !== undefined) await file.utimes(header.mtime, header.mtime).catch(() => undefined);
    await file.close();
  } catch (error) {
    await file.close().catch(() => undefined);
    // Half a file is of no use, and a full disk needs its space back.
    await fs.unlink(directory.child(temporary)).catch(() => undefined);
    if (isFilesystemError(error)) throw error;
    if (isDiskFull(error)) throw new FilesystemError('ENOSPACE');
    throw new FilesystemError('EARCHIVE', 'The archive is damaged and could not be extracted completely.');
  }
  await names.checkpoint();
  try {
    await fs.rename(directory.child(temporary), directory.child(name));
  } catch (error) {
    await fs.unlink(directory.child(temporary)).catch(() => undefined);
    const code = errnoOf(error);
    // A folder of that name appeared since the check (the game makes one).
    if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') {
      return skip('a directory of that name exists');
    }
    throw error;
  }
  result.entries += 1;
  return bytes;
}
