import { randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import {
  type JobKind,
  type JobLeftovers,
  type JournalEntry,
  type ServerJobs,
  unjournaledJobs,
} from '@aerie/daemon/jobs/job-journal';
import {
  DEFAULT_EXTRACT_LIMITS,
  type ExtractLimits,
  type ExtractResult,
  extractArchive,
  restoreRoomBytes,
} from './archive-extractor';
import { detectArchive } from './archive-reader';
import { type ArchiveFormat, type ArchiveItem, writeArchive } from './archive-writer';
import { Denylist } from './denylist';
import { DirectoryReader } from './directory-reader';
import { type DiskQuota, type DiskReservation, unlimitedQuota } from './disk-quota';
import { describeEntry, type FileEntry } from './file-entry';
import { parseMode } from './file-mode';
import { archiveName, copyNameCandidates } from './file-names';
import { errnoOf, FilesystemError, fromSystemError, isFilesystemError } from './filesystem-error';
import { type DirectoryHandle, type FileOwner, Jail } from './jail';
import { displayPath, joinComponents, pathComponents } from './jail-path';
import { type ListOptions, listDirectory } from './list-directory';
import { MimeCache } from './mime-cache';
import { OpenFile, type OpenFileMode } from './open-file';
import { readExactly } from './read-exactly';
import { renameNoReplace } from './rename-no-replace';
import { openChildNoFollow, removeTree, usedBytes, walkTree } from './tree';
import { writeAll } from './write-all';

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
/** Linux's O_PATH (same value on x86-64 and arm64); Node does not export it. */
const O_PATH = 0o10000000;
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY;
/** Access mode added by the caller (openFile). */
const CREATE_NEW_FLAGS = O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY;
const OPEN_EXISTING_FLAGS = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

export interface ServerFilesystemOptions {
  /** The server's directory on the host. */
  root: string;
  quota?: DiskQuota;
  /** The egg's `file_denylist` (gitignore patterns). */
  denylist?: readonly string[];
  extractLimits?: Partial<ExtractLimits>;
  /** Clock for archive and copy names (tests). */
  now?: () => Date;
  /** The uid the server's game runs as: what the daemon creates becomes its (a root daemon only). */
  owner?: FileOwner;
  /** Where archive and decompress jobs are recorded while they write (the daemon's job journal). */
  jobs?: ServerJobs;
}

export interface FileContents {
  /** Exactly `size` bytes; the caller must consume or destroy it (it holds the file open). */
  stream: Readable;
  size: number;
  entry: FileEntry;
}

/** A file's new contents: bytes at once, or a stream or any async source of pieces as they arrive. */
/** What a backup leaves out (backups/ignore-rules.ts). */
export interface BackupFilter {
  /** May answer later: the rules give the event loop back while matching (backups/ignore-rules.ts). */
  ignores(relativePath: string, isDirectory: boolean): boolean | Promise<boolean>;
  readonly canSkipIgnoredDirectories: boolean;
}

export type FileData = Buffer | Uint8Array | string | Readable | AsyncIterable<Uint8Array>;

/**
 * One server's files, as the daemon's routes use them. Every path is a user path below the server root (`/` is the
 * root); whatever the operation, nothing outside the root is read, written, listed, moved, deleted or chmod'ed:
 * directories are opened one name at a time and verified on their descriptor, final names are never followed when
 * they are symlinks, and recursive work goes through descriptors (see jail.ts).
 */
export class ServerFilesystem {
  /** Sniffed mimes of unchanged files, so listing a big folder again does not reopen every file. */
  private readonly mimes = new MimeCache();

  private constructor(
    private readonly jail: Jail,
    private readonly quota: DiskQuota,
    private readonly denylist: Denylist,
    private readonly limits: ExtractLimits,
    private readonly now: () => Date,
    private readonly jobs: ServerJobs,
  ) {}

  static async open(options: ServerFilesystemOptions): Promise<ServerFilesystem> {
    return new ServerFilesystem(
      await Jail.open(options.root, options.owner),
      options.quota ?? unlimitedQuota,
      new Denylist(options.denylist),
      { ...DEFAULT_EXTRACT_LIMITS, ...options.extractLimits },
      options.now ?? (() => new Date()),
      options.jobs ?? unjournaledJobs,
    );
  }

  /** The resolved root directory on the host. */
  get root(): string {
    return this.jail.root;
  }

  /** The entries of a directory: directories first, then files, each by name; a page of them (list-directory.ts). */
  async list(directory = '/', options: ListOptions = {}): Promise<FileEntry[]> {
    const components = pathComponents(directory);
    const handle = await this.jail.openDirectory(components);
    try {
      return await listDirectory(handle, this.mimes, displayPath(components), options);
    } catch (error) {
      return fromSystemError(error);
    } finally {
      await handle.close();
    }
  }

  /** One entry; a symlink is described as the link. */
  async stat(path: string): Promise<FileEntry> {
    const components = pathComponents(path);
    if (components.length === 0) {
      const root = await this.jail.openRoot();
      try {
        return await describeEntry(root, '/', await root.handle.stat());
      } finally {
        await root.close();
      }
    }
    return this.withParent(components, false, async (directory, name) =>
      describeEntry(directory, name, await fs.lstat(directory.child(name))),
    );
  }

  /** A regular file's bytes, up to the size it had when opened. Links, directories, pipes and devices are refused. */
  async readFile(path: string): Promise<FileContents> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    const { handle, entry } = await this.withParent(components, false, async (directory, name) => {
      const opened = await this.openRegular(directory, name);
      const stats = await opened.stat();
      return { handle: opened, entry: await describeEntry(directory, name, stats) };
    });
    return { stream: readExactly(handle, entry.size), size: entry.size, entry };
  }

  /**
   * Writes a file (creating missing parent directories 0755, a new file 0644, an existing file keeps its mode).
   * The quota is reserved before writing: `used + reserved + (new − old) ≤ limit`, for a declared size at once and
   * for a stream of unknown size as it grows, so parallel writes together never pass the limit. The data goes to a
   * temporary file that replaces the target only when complete, so
   * a refused or broken upload leaves the old file as it was. With `job` (a remote pull), the temporary name is a
   * job journal's, so a daemon killed mid-write leaves nothing behind at its next boot.
   */
  async writeFile(
    path: string,
    data: FileData,
    size?: number,
    options: { job?: JobKind } = {},
  ): Promise<FileEntry> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    this.assertAllowed(components);
    const bytes =
      typeof data === 'string' ? Buffer.from(data) : data instanceof Uint8Array ? data : undefined;
    const declared = bytes?.length ?? size;
    return this.withParent(components, true, async (directory, name) => {
      const existing = await fs.lstat(directory.child(name)).catch((error: unknown) => {
        if (errnoOf(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (existing?.isSymbolicLink()) throw new FilesystemError('ESYMLINK');
      if (existing?.isDirectory()) throw new FilesystemError('EISDIR');
      if (existing !== undefined && !existing.isFile()) throw new FilesystemError('ENOTREGULAR');
      const oldSize = existing?.size ?? 0;
      // Held before the first byte: a declared size at once, a stream as it grows past the old file's size.
      const reservation = await this.quota.reserve(Math.max(0, (declared ?? 0) - oldSize));
      const tooMuch = () => new FilesystemError('EINVALID', 'More data was sent than announced.');
      let job: JournalEntry | undefined;
      let temporary = `.aerie-upload-${randomUUID()}`;
      let file: FileHandle | undefined;
      let written: number;
      try {
        if (options.job !== undefined) {
          job = await this.jobs.begin(options.job, { directory: components.slice(0, -1), recursive: false });
          temporary = job.prefix;
        }
        file = await fs.open(directory.child(temporary), CREATE_FLAGS, 0o644);
        await this.jail.own(file);
        await file.chmod(existing === undefined ? 0o644 : existing.mode & 0o7777);
        written = await writeAll(
          file,
          bytes === undefined ? (data as AsyncIterable<Uint8Array>) : [bytes],
          declared,
          tooMuch,
          (total) => reservation.ensure(total - oldSize),
        );
        await file.close();
        await job?.checkpoint();
        await fs.rename(directory.child(temporary), directory.child(name));
      } catch (error) {
        reservation.release();
        if (file !== undefined) {
          await file.close().catch(() => undefined);
          await fs.unlink(directory.child(temporary)).catch(() => undefined);
        }
        await job?.end();
        throw error;
      }
      await job?.end();
      reservation.commit(written - oldSize);
      return describeEntry(directory, name, await fs.lstat(directory.child(name)));
    });
  }

  /** Creates `name` (which may hold several levels) inside `path`, mode 0755. */
  async createDirectory(name: string, path = '/'): Promise<void> {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new FilesystemError('EINVALID', 'A valid directory name must be provided.');
    }
    const components = joinComponents(path, name);
    if (components.length === 0) throw new FilesystemError('EEXISTS');
    this.assertAllowed(components);
    await this.withParent(components, true, async (directory, name) => {
      await fs.mkdir(directory.child(name), 0o755);
      await this.jail.ownName(directory, name);
    });
  }

  /**
   * Renames or moves each `from` to `to`, both relative to `root`. Missing destination directories are created; an
   * existing destination (a symlink included) is never replaced. Every pair is checked before anything moves.
   */
  async rename(root: string, files: readonly { from: string; to: string }[]): Promise<void> {
    const moves = files.map(({ from, to }) => {
      const source = joinComponents(root, from);
      const target = joinComponents(root, to);
      if (source.length === 0 || target.length === 0) {
        throw new FilesystemError('EINVALID', 'The server root cannot be renamed.');
      }
      this.assertAllowed(source);
      this.assertAllowed(target);
      return { source, target };
    });
    for (const { source, target } of moves) {
      if (source.join('/') === target.join('/')) continue;
      await this.withParent(source, false, async (from, fromName) => {
        const source = await fs.lstat(from.child(fromName));
        await this.withParent(target, true, async (to, toName) => {
          await renameNoReplace(from.child(fromName), to.child(toName), source.isDirectory());
        });
      });
    }
  }

  /** Copies a regular file next to itself with Wings' naming (`name copy.ext`, `name copy 1.ext` …). */
  async copy(location: string): Promise<FileEntry> {
    const components = pathComponents(location);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    this.assertAllowed(components);
    return this.withParent(components, false, async (directory, name) => {
      const source = await this.openRegular(directory, name);
      let target: FileHandle | undefined;
      let targetName = '';
      let reservation: DiskReservation | undefined;
      try {
        const stats = await source.stat();
        reservation = await this.quota.reserve(stats.size);
        for (const candidate of copyNameCandidates(name, this.now())) {
          if (this.denylist.matches([...components.slice(0, -1), candidate])) continue;
          target = await fs.open(directory.child(candidate), CREATE_FLAGS, 0o644).catch((error: unknown) => {
            if (errnoOf(error) === 'EEXIST') return undefined;
            throw error;
          });
          if (target !== undefined) {
            targetName = candidate;
            break;
          }
        }
        if (target === undefined) throw new FilesystemError('EEXISTS');
        await this.jail.own(target);
        await target.chmod(stats.mode & 0o7777);
        await writeAll(target, readExactly(source, stats.size));
        reservation.commit(stats.size);
        return describeEntry(directory, targetName, await fs.lstat(directory.child(targetName)));
      } catch (error) {
        // A copy cut short is removed, so the space it held is free again.
        if (target !== undefined) await fs.unlink(directory.child(targetName)).catch(() => undefined);
        throw error;
      } finally {
        reservation?.release();
        await source.close().catch(() => undefined);
        await target?.close();
      }
    });
  }

  /** Deletes each of `files` in `root`; a symlink is removed as a link, its target is never touched. */
  async delete(root: string, files: readonly string[]): Promise<void> {
    const targets = files.map((file) => {
      const components = joinComponents(root, file);
      if (components.length === 0)
        throw new FilesystemError('EINVALID', 'The server root cannot be deleted.');
      this.assertAllowed(components);
      return components;
    });
    for (const components of targets) {
      try {
        const freed = await this.withParent(components, false, (directory, name) =>
          removeTree(directory, name),
        );
        this.quota.add(-freed);
      } catch (error) {
        if (error instanceof FilesystemError && error.code === 'ENOTFOUND') continue;
        throw error;
      }
    }
  }

  /**
   * Sets permission bits. Never through a symlink (GHSA-rhq6-9rgh-v45c): the name is opened O_PATH|O_NOFOLLOW, a
   * link is refused, and the mode is set on that very inode through its descriptor (what glibc does for
   * fchmodat(AT_SYMLINK_NOFOLLOW), since Linux has no lchmod).
   */
  async chmod(root: string, files: readonly { file: string; mode: string | number }[]): Promise<void> {
    const changes = files.map(({ file, mode }) => {
      const components = joinComponents(root, file);
      this.assertAllowed(components);
      return { components, mode: parseMode(mode) };
    });
    for (const { components, mode } of changes) {
      await this.withParent(components, false, async (directory, name) => {
        const handle = await fs.open(directory.child(name), O_PATH | O_NOFOLLOW);
        try {
          if ((await handle.stat()).isSymbolicLink()) throw new FilesystemError('ESYMLINK');
          await fs.chmod(`/proc/self/fd/${handle.fd}`, mode);
        } finally {
          await handle.close();
        }
      });
    }
  }

  /**
   * Archives `files` (names in `root`, recursively) into `archive-<time>.tar.gz` (or `.zip`) in `root`. Symlinks
   * are stored as links, never followed. The archive counts against the quota: writing stops once it would pass
   * the limit and the partial archive is deleted.
   */
  async compress(
    root: string,
    files: readonly string[],
    format: ArchiveFormat = 'tar.gz',
  ): Promise<FileEntry> {
    if (format !== 'tar.gz' && format !== 'zip')
      throw new FilesystemError('EINVALID', 'Unknown archive format.');
    const base = pathComponents(root);
    const selected = files.map((file) => {
      const components = joinComponents(root, file);
      const inside =
        components.length > base.length && base.every((name, index) => components[index] === name);
      if (!inside)
        throw new FilesystemError('EINVALID', 'Only files inside the chosen directory can be archived.');
      return components;
    });
    if (selected.length === 0) throw new FilesystemError('EINVALID', 'No files were selected.');
    for (const components of selected)
      await this.withParent(components, false, (d, name) => fs.lstat(d.child(name)));

    return this.withDirectory(base, false, async (directory) => {
      const reservation = await this.quota.reserve();
      // Written under a journaled temporary name, renamed to `archive-….tar.gz` only when whole.
      const job = await this.jobs.begin('archive', { directory: base, recursive: false });
      const temporary = job.prefix;
      let name: string;
      let size: number;
      try {
        const handle = await fs.open(directory.child(temporary), CREATE_FLAGS, 0o644);
        try {
          await this.jail.own(handle);
          const output = new PassThrough();
          const [, written] = await Promise.all([
            writeArchive(this.archiveItems(base, selected), format, output),
            writeAll(handle, output, undefined, undefined, (total) => reservation.ensure(total)).catch(
              (error: unknown) => {
                output.destroy(error as Error);
                throw error;
              },
            ),
          ]);
          size = written;
        } finally {
          await handle.close().catch(() => undefined);
        }
        await job.checkpoint();
        name = await this.placeArchive(directory, temporary, format);
      } catch (error) {
        reservation.release();
        await fs.unlink(directory.child(temporary)).catch(() => undefined);
        throw error;
      } finally {
        await job.end();
      }
      reservation.commit(size);
      return describeEntry(directory, name, await fs.lstat(directory.child(name)));
    });
  }

  /**
   * Extracts the archive `file` (in `root`) into `root`: zip, tar, tar.gz, and tar.bz2/xz/zst when the host has
   * the decoder. The archive is refused as a whole, before anything is written, when an entry would land outside
   * the root or the limits are passed (see archive-extractor.ts).
   */
  async decompress(root: string, file: string): Promise<ExtractResult> {
    const base = pathComponents(root);
    const components = joinComponents(root, file);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    const handle = await this.withParent(components, false, (directory, name) =>
      this.openRegular(directory, name),
    );
    try {
      return await this.extract(handle, 'decompress', base);
    } finally {
      await handle.close();
    }
  }

  /**
   * Extracts the archive open at `handle` into `base` as a journaled job, its kind told by its first bytes.
   * @throws FilesystemError EUNSUPPORTED for anything that is not an archive this host can read
   */
  private async extract(
    handle: FileHandle,
    kind: 'decompress' | 'restore',
    base: readonly string[],
    restore?: { truncate: boolean },
  ): Promise<ExtractResult> {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    const archive = detectArchive(head.subarray(0, bytesRead));
    if (archive === undefined) throw new FilesystemError('EUNSUPPORTED');
    const archiveBytes = (await handle.stat()).size;
    const restoring =
      restore === undefined
        ? undefined
        : {
            roomBytes: await restoreRoomBytes(this.quota, this.jail.root, restore.truncate),
            beforeWrite: restore.truncate ? () => this.truncate() : undefined,
          };
    const job = await this.jobs.begin(kind, { directory: base, recursive: true });
    try {
      return await extractArchive({
        jail: this.jail,
        handle,
        kind: archive,
        archiveBytes,
        base,
        denylist: this.denylist,
        quota: this.quota,
        limits: this.limits,
        restore: restoring,
        temporary: job,
      }).catch(fromSystemError);
    } finally {
      await job.end();
    }
  }

  /**
   * Every entry under the root for a backup, in walk order: regular files (opened when the writer asks, through
   * the walk's own `O_NOFOLLOW` directory), symlinks as links (never followed), and every directory not ignored,
   * empty ones too (Wings drops those, and a restore then lost them); an ignored one only when something inside it
   * is archived, just before its first entry. Sockets,
   * pipes and devices are skipped. `filter` decides by the root-relative path; an ignored directory is walked
   * anyway when a rule could take something inside it back.
   */
  async *backupItems(filter: BackupFilter): AsyncGenerator<ArchiveItem> {
    const root = await this.jail.openRoot();
    try {
      yield* this.backupWalk(root, [], filter, []);
    } finally {
      await root.close();
    }
  }

  private async *backupWalk(
    directory: DirectoryHandle,
    relative: readonly string[],
    filter: BackupFilter,
    pending: ArchiveItem[],
  ): AsyncGenerator<ArchiveItem> {
    const children = (await fs.readdir(directory.path).catch(() => [] as string[])).sort();
    for (const name of children) {
      const path = [...relative, name];
      const stats = await fs.lstat(directory.child(name)).catch(() => undefined);
      if (stats === undefined) continue; // gone since the listing
      const item: ArchiveItem = { name: path.join('/'), stats };
      if (stats.isDirectory()) {
        const ignored = await filter.ignores(item.name, true);
        if (ignored && filter.canSkipIgnoredDirectories) continue;
        const child = await openChildNoFollow(directory, name);
        if (child === undefined) continue;
        // A kept directory is written, empty or not (a restore brings back every folder); one a rule ignores only
        // when a later rule takes something inside it back, just before that thing.
        pending.push(item);
        if (!ignored) yield* pending.splice(0);
        try {
          yield* this.backupWalk(child, path, filter, pending);
        } finally {
          await child.close();
        }
        const stillPending = pending.indexOf(item);
        if (stillPending >= 0) pending.splice(stillPending);
        continue;
      }
      if (await filter.ignores(item.name, false)) continue;
      if (stats.isSymbolicLink()) {
        item.linkTarget = await fs.readlink(directory.child(name)).catch(() => undefined);
        if (item.linkTarget === undefined) continue;
      } else if (stats.isFile()) {
        item.open = () => this.openForArchiveIn(directory, name);
      } else {
        continue; // sockets, pipes, devices
      }
      yield* pending.splice(0);
      yield item;
    }
  }

  /**
   * Removes everything inside the root (the root itself stays): links as links, never followed, whatever the
   * egg's denylist says. The freed bytes leave the quota.
   */
  async truncate(): Promise<void> {
    const root = await this.jail.openRoot();
    try {
      for (const name of await fs.readdir(root.path)) {
        this.quota.add(-(await removeTree(root, name)));
      }
    } catch (error) {
      fromSystemError(error);
    } finally {
      await root.close();
    }
  }

  /**
   * Restores a backup (an archive outside the server) into the root: the archive is refused whole, before anything
   * is removed or written, for names leaving the root, links leading out or with entries below them, hard links, or
   * a total past the disk limit; then, with `truncate`, everything in the root goes, and the entries are written
   * with their links made as stored (archive-extractor.ts, archive-links.ts); denylisted entries are skipped.
   */
  async extractFrom(handle: FileHandle, options: { truncate?: boolean } = {}): Promise<ExtractResult> {
    return this.extract(handle, 'restore', [], { truncate: options.truncate === true });
  }

  /**
   * Removes what an interrupted job left (its journal says where): entries named with its temporary prefix in
   * that folder, and below it when the job wrote there too. Never follows a link; a folder gone since is fine.
   */
  async removeLeftovers(leftovers: JobLeftovers): Promise<number> {
    let removed = 0;
    const sweep = async (directory: DirectoryHandle): Promise<void> => {
      for (const name of await fs.readdir(directory.path)) {
        // The job's own folder only, or every folder below it too; links are never followed either way.
        if (!leftovers.recursive && !name.startsWith(leftovers.prefix)) continue;
        for await (const entry of walkTree(directory, name)) {
          if (!entry.name.startsWith(leftovers.prefix) || entry.stats.isDirectory()) continue;
          await fs.unlink(entry.parent.child(entry.name)).catch(() => undefined);
          removed += 1;
        }
      }
    };
    await this.withDirectory([...leftovers.directory], false, sweep).catch((error: unknown) => {
      if (
        isFilesystemError(error) &&
        (error.code === 'ENOTFOUND' || error.code === 'ENOTDIR' || error.code === 'ESYMLINK')
      )
        return;
      throw error;
    });
    return removed;
  }

  /**
   * Opens a regular file for reading and writing at any offset (an SFTP handle; see open-file.ts). A symlink,
   * directory, pipe or device is refused, as is writing to a file with several hard links (the other names may
   * lie outside the root). A new file is 0644 and its missing parents are made; writing needs the denylist's
   * leave; truncation frees its bytes at once; growth is held against the quota write by write.
   */
  async openFile(path: string, mode: OpenFileMode): Promise<OpenFile> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    const writes = mode.write || mode.truncate || mode.create;
    if (writes) this.assertAllowed(components);
    return this.withParent(components, mode.create, async (directory, name) => {
      const existing = await fs.lstat(directory.child(name)).catch((error: unknown) => {
        if (errnoOf(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (existing?.isSymbolicLink()) throw new FilesystemError('ESYMLINK');
      if (existing?.isDirectory()) throw new FilesystemError('EISDIR');
      if (existing !== undefined && !existing.isFile()) throw new FilesystemError('ENOTREGULAR');
      if (existing !== undefined && mode.create && mode.exclusive) throw new FilesystemError('EEXISTS');
      if (existing === undefined && !mode.create) throw new FilesystemError('ENOTFOUND');
      const access = mode.read && writes ? O_RDWR : writes ? O_WRONLY : O_RDONLY;
      const reservation = writes ? await this.quota.reserve() : undefined;
      let handle: FileHandle | undefined;
      try {
        if (existing === undefined) {
          handle = await fs.open(directory.child(name), access | CREATE_NEW_FLAGS, 0o644);
          await this.jail.own(handle);
          await handle.chmod(0o644);
        } else {
          handle = await fs.open(directory.child(name), access | OPEN_EXISTING_FLAGS);
        }
        const stats = await handle.stat();
        if (stats.isDirectory()) throw new FilesystemError('EISDIR');
        if (!stats.isFile()) throw new FilesystemError('ENOTREGULAR');
        if (writes && stats.nlink > 1) {
          throw new FilesystemError('EINVALID', 'A file with several hard links cannot be written here.');
        }
        let size = stats.size;
        if (mode.truncate && writes && size > 0) {
          await handle.truncate(0);
          this.quota.add(-size);
          size = 0;
        }
        return new OpenFile(handle, { reservation, size, append: mode.append });
      } catch (error) {
        reservation?.release();
        await handle?.close().catch(() => undefined);
        throw error;
      }
    });
  }

  /** A directory to read a batch of entries at a time (each described by its lstat); close it when done. */
  async readDirectory(path: string): Promise<DirectoryReader> {
    const directory = await this.jail.openDirectory(pathComponents(path));
    try {
      return await DirectoryReader.open(directory);
    } catch (error) {
      return fromSystemError(error);
    }
  }

  /** The raw lstat of one name (a symlink as the link); the root's own stat for `/`. */
  async lstatOf(path: string): Promise<Stats> {
    const components = pathComponents(path);
    if (components.length === 0) return this.rootStats();
    return this.withParent(components, false, (directory, name) => fs.lstat(directory.child(name)));
  }

  /**
   * The raw stat of one name, following a final symlink only to where it lands inside the root (checked on the
   * opened descriptor); a link leading outside, or dangling, is described as the link itself.
   */
  async statOf(path: string): Promise<Stats> {
    const components = pathComponents(path);
    if (components.length === 0) return this.rootStats();
    return this.withParent(components, false, async (directory, name) => {
      const link = await fs.lstat(directory.child(name));
      if (!link.isSymbolicLink()) return link;
      const target = await fs.open(directory.child(name), O_PATH).catch(() => undefined);
      if (target === undefined) return link;
      try {
        await this.jail.verify(target);
        return await target.stat();
      } catch {
        return link;
      } finally {
        await target.close();
      }
    });
  }

  /** Removes one file or link (never a directory: `removeDirectory`). */
  async removeFile(path: string): Promise<void> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    this.assertAllowed(components);
    await this.withParent(components, false, async (directory, name) => {
      const stats = await fs.lstat(directory.child(name));
      if (stats.isDirectory()) throw new FilesystemError('EISDIR');
      await fs.unlink(directory.child(name));
      if (stats.isFile()) this.quota.add(-stats.size);
    });
  }

  /** Removes an empty directory; one with anything in it is refused (a link to a directory is not one). */
  async removeDirectory(path: string): Promise<void> {
    const components = pathComponents(path);
    if (components.length === 0) {
      throw new FilesystemError('EINVALID', 'The server root cannot be deleted.');
    }
    this.assertAllowed(components);
    await this.withParent(components, false, async (directory, name) => {
      await fs.rmdir(directory.child(name)).catch((error: unknown) => {
        const code = errnoOf(error);
        if (code === 'ENOTEMPTY' || code === 'EEXIST') {
          throw new FilesystemError('EINVALID', 'The folder is not empty.');
        }
        throw error;
      });
    });
  }

  /**
   * Makes a symbolic link at `path` to `target`. Only a relative target that stays inside the root is allowed
   * (checked on the names, from the link's own folder): an absolute one would be read by the host against its
   * own root, not the server's. What the link is later used for still goes through the jail.
   */
  async createSymlink(path: string, target: string): Promise<void> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EEXISTS');
    this.assertAllowed(components);
    const outside = () =>
      new FilesystemError(
        'EINVALID',
        "A symbolic link may only point inside the server's files, by a relative path.",
      );
    if (typeof target !== 'string' || target === '' || target.startsWith('/') || target.includes('\0')) {
      throw outside();
    }
    try {
      pathComponents([...components.slice(0, -1), target].join('/'));
    } catch {
      throw outside();
    }
    await this.withParent(components, false, async (directory, name) => {
      await fs.symlink(target, directory.child(name));
      await this.jail.ownName(directory, name);
    });
  }

  /** What a symbolic link inside the root says (its text only; nothing is followed). */
  async readLink(path: string): Promise<string> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EINVALID', 'That is not a symbolic link.');
    return this.withParent(components, false, async (directory, name) => {
      const stats = await fs.lstat(directory.child(name));
      if (!stats.isSymbolicLink()) throw new FilesystemError('EINVALID', 'That is not a symbolic link.');
      return fs.readlink(directory.child(name));
    });
  }

  /** Sets access and modification times, never through a link (as chmod). */
  async setTimes(path: string, accessed: Date | number, modified: Date | number): Promise<void> {
    const components = pathComponents(path);
    this.assertAllowed(components);
    const apply = async (handle: FileHandle) => {
      if ((await handle.stat()).isSymbolicLink()) throw new FilesystemError('ESYMLINK');
      await fs.utimes(`/proc/self/fd/${handle.fd}`, accessed, modified);
    };
    if (components.length === 0) {
      const root = await this.jail.openRoot();
      try {
        return await apply(root.handle);
      } finally {
        await root.close();
      }
    }
    await this.withParent(components, false, async (directory, name) => {
      const handle = await fs.open(directory.child(name), O_PATH | O_NOFOLLOW);
      try {
        await apply(handle);
      } finally {
        await handle.close();
      }
    });
  }

  /** Holds `bytes` of this server's quota for bytes kept elsewhere first (an upload being staged). */
  reserveSpace(bytes = 0): Promise<DiskReservation> {
    return this.quota.reserve(bytes);
  }

  /** Bytes used by the regular files under the root (lstat sizes, hard links once, links not followed). */
  async diskUsage(): Promise<number> {
    const root = await this.jail.openRoot();
    try {
      return await usedBytes(root);
    } finally {
      await root.close();
    }
  }

  private async rootStats(): Promise<Stats> {
    const root = await this.jail.openRoot();
    try {
      return await root.handle.stat();
    } finally {
      await root.close();
    }
  }

  private assertAllowed(components: readonly string[]): void {
    if (this.denylist.matches(components)) throw new FilesystemError('EDENIED');
  }

  /** Runs `action` with the verified parent directory of `components`, mapping the kernel's errors to ours. */
  private async withParent<T>(
    components: readonly string[],
    create: boolean,
    action: (directory: DirectoryHandle, name: string) => Promise<T>,
  ): Promise<T> {
    const { directory, name } = await this.jail.openParent(components, { create });
    try {
      return await action(directory, name);
    } catch (error) {
      return fromSystemError(error);
    } finally {
      await directory.close();
    }
  }

  private async withDirectory<T>(
    components: readonly string[],
    create: boolean,
    action: (directory: DirectoryHandle) => Promise<T>,
  ): Promise<T> {
    const directory = await this.jail.openDirectory(components, { create });
    try {
      return await action(directory);
    } catch (error) {
      return fromSystemError(error);
    } finally {
      await directory.close();
    }
  }

  /** Opens a regular file without following a link; directories, pipes and devices are refused. */
  private async openRegular(directory: DirectoryHandle, name: string): Promise<FileHandle> {
    return (await this.openRegularWithStats(directory, name)).handle;
  }

  private async openRegularWithStats(
    directory: DirectoryHandle,
    name: string,
  ): Promise<{ handle: FileHandle; stats: Stats }> {
    const handle = await fs.open(directory.child(name), READ_FLAGS);
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new FilesystemError('EISDIR');
      if (!stats.isFile()) throw new FilesystemError('ENOTREGULAR');
      return { handle, stats };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Gives a whole archive its name: `archive-<time>.<format>`, or `-1`, `-2`… when the name is taken. */
  private async placeArchive(
    directory: DirectoryHandle,
    temporary: string,
    format: ArchiveFormat,
  ): Promise<string> {
    const base = archiveName(this.now(), format);
    for (let attempt = 0; attempt < 100; attempt++) {
      const name = attempt === 0 ? base : base.replace(`.${format}`, `-${attempt}.${format}`);
      try {
        await renameNoReplace(directory.child(temporary), directory.child(name), false);
        return name;
      } catch (error) {
        if (!(isFilesystemError(error) && error.code === 'EEXISTS')) throw error;
      }
    }
    throw new FilesystemError('EEXISTS');
  }

  /**
   * The selected trees as archive items. A file is opened when the writer asks for it: through the walk's own
   * directory while the walk is still there (the tar writer asks at once, so a 6,000-file tree is not walked
   * from the root 6,000 times), else, as for zip's lazy queue, by a fresh walk through the jail. The walk's
   * directory is used only while it is open: its /proc/self/fd path would name whatever reuses the number after.
   */
  private async *archiveItems(
    base: readonly string[],
    selected: readonly string[][],
  ): AsyncGenerator<ArchiveItem> {
    for (const components of selected) {
      const { directory, name } = await this.jail.openParent(components);
      try {
        for await (const entry of walkTree(directory, name, components.slice(base.length))) {
          const full = [...base, ...entry.relative];
          const item: ArchiveItem = { name: entry.relative.join('/'), stats: entry.stats };
          let walkIsHere = true;
          if (entry.stats.isSymbolicLink()) {
            item.linkTarget = await fs.readlink(entry.parent.child(entry.name)).catch(() => undefined);
            if (item.linkTarget === undefined) continue;
          } else if (entry.stats.isFile()) {
            item.open = () =>
              walkIsHere ? this.openForArchiveIn(entry.parent, entry.name) : this.openForArchive(full);
          } else if (!entry.stats.isDirectory()) {
            continue; // pipes, sockets, devices are not archived
          }
          try {
            yield item;
          } finally {
            walkIsHere = false;
          }
        }
      } finally {
        await directory.close();
      }
    }
  }

  private async openForArchive(components: readonly string[]): Promise<{ handle: FileHandle; size: number }> {
    const { directory, name } = await this.jail.openParent(components);
    try {
      return await this.openForArchiveIn(directory, name);
    } finally {
      await directory.close();
    }
  }

  private async openForArchiveIn(
    directory: DirectoryHandle,
    name: string,
  ): Promise<{ handle: FileHandle; size: number }> {
    const { handle, stats } = await this.openRegularWithStats(directory, name);
    return { handle, size: stats.size };
  }
}
