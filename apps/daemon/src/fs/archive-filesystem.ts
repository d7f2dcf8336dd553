import fs, { type FileHandle } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import type { JobLeftovers } from '@aerie/daemon/jobs/job-journal';
import { type ExtractResult, extractArchive, extractStream, restoreRoomBytes } from './archive-extractor';
import { detectArchive } from './archive-reader';
import { type ArchiveFormat, type ArchiveItem, writeArchive } from './archive-writer';
import { describeEntry, type FileEntry } from './file-entry';
import { archiveName } from './file-names';
import { FilesystemError, fromSystemError, isFilesystemError } from './filesystem-error';
import type { DirectoryHandle } from './jail';
import { joinComponents, pathComponents } from './jail-path';
import type { JailPrimitives } from './jail-primitives';
import { CREATE_FLAGS } from './open-flags';
import { renameNoReplace } from './rename-no-replace';
import { openChildNoFollow, removeTree, walkTree } from './tree';
import { writeAll } from './write-all';

/** What a backup leaves out (backups/ignore-rules.ts). */
export interface BackupFilter {
  /** May answer later: the rules give the event loop back while matching (backups/ignore-rules.ts). */
  ignores(relativePath: string, isDirectory: boolean): boolean | Promise<boolean>;
  readonly canSkipIgnoredDirectories: boolean;
}

/**
 * Archives of a server's files (`files.archives`): compress and decompress for the files API, the walk a backup
 * writes and the truncate and extraction a restore makes, and the removal of what an interrupted job left. Same
 * jail, quota and denylist as `ServerFilesystem`; whatever is written is written as a journaled job.
 */
export class ArchiveFilesystem {
  constructor(private readonly primitives: JailPrimitives) {}

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
      await this.primitives.withParent(components, false, (d, name) => fs.lstat(d.child(name)));

    return this.primitives.withDirectory(base, false, async (directory) => {
      const reservation = await this.primitives.quota.reserve();
      // Written under a journaled temporary name, renamed to `archive-….tar.gz` only when whole.
      const job = await this.primitives.jobs.begin('archive', { directory: base, recursive: false });
      const temporary = job.prefix;
      let name: string;
      let size: number;
      try {
        const handle = await fs.open(directory.child(temporary), CREATE_FLAGS, 0o644);
        try {
          await this.primitives.jail.own(handle);
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
    const handle = await this.primitives.withParent(
      components,
      false,
      async (directory, name) => (await this.primitives.openRegular(directory, name)).handle,
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
            roomBytes: await restoreRoomBytes(
              this.primitives.quota,
              this.primitives.jail.root,
              restore.truncate,
            ),
            beforeWrite: restore.truncate ? () => this.truncate() : undefined,
          };
    const job = await this.primitives.jobs.begin(kind, { directory: base, recursive: true });
    try {
      return await extractArchive({
        jail: this.primitives.jail,
        handle,
        kind: archive,
        archiveBytes,
        base,
        denylist: this.primitives.denylist,
        quota: this.primitives.quota,
        limits: this.primitives.extractLimits,
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
    const root = await this.primitives.jail.openRoot();
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
    const root = await this.primitives.jail.openRoot();
    try {
      for (const name of await fs.readdir(root.path)) {
        this.primitives.quota.add(-(await removeTree(root, name)));
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
   * Extracts a server's files sent by another node (a transfer's tar.gz, read once as it arrives) into the root,
   * links made as stored, nothing outside the root, at most `roomBytes`. Files are whole under their names or not
   * there; what a refusal part-way left is the caller's to remove (it receives into a folder of its own).
   */
  async receive(stream: Readable, roomBytes: number): Promise<ExtractResult> {
    const job = await this.primitives.jobs.begin('restore', { directory: [], recursive: true });
    try {
      return await extractStream({
        jail: this.primitives.jail,
        stream,
        base: [],
        denylist: this.primitives.denylist,
        quota: this.primitives.quota,
        roomBytes,
        temporary: job,
      }).catch(fromSystemError);
    } finally {
      await job.end();
    }
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
    await this.primitives.withDirectory([...leftovers.directory], false, sweep).catch((error: unknown) => {
      if (
        isFilesystemError(error) &&
        (error.code === 'ENOTFOUND' || error.code === 'ENOTDIR' || error.code === 'ESYMLINK')
      )
        return;
      throw error;
    });
    return removed;
  }

  /** Gives a whole archive its name: `archive-<time>.<format>`, or `-1`, `-2`… when the name is taken. */
  private async placeArchive(
    directory: DirectoryHandle,
    temporary: string,
    format: ArchiveFormat,
  ): Promise<string> {
    const base = archiveName(this.primitives.now(), format);
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
      const { directory, name } = await this.primitives.jail.openParent(components);
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
    const { directory, name } = await this.primitives.jail.openParent(components);
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
    const { handle, stats } = await this.primitives.openRegular(directory, name);
    return { handle, size: stats.size };
  }
}
