import { once } from 'node:events';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';
import { coalesce } from './coalesce';
import { readExactly } from './read-exactly';

export type ArchiveFormat = 'tar.gz' | 'zip';

/** zlib's input and output pieces: one threadpool job and one file write per 256 KiB rather than per 16 KiB. */
const ZLIB_CHUNK = 256 * 1024;

/** One thing to store. Files are opened only when their turn comes, through the jail, without following links. */
export interface ArchiveItem {
  /** Path inside the archive. */
  name: string;
  stats: Stats;
  /** For a symlink: its target, stored as is (the link is archived, never followed). */
  linkTarget?: string;
  /** For a regular file: opens it and returns the handle and its size at open. */
  open?: () => Promise<{ handle: FileHandle; size: number }>;
}

export interface ArchiveWriteOptions {
  /** tar.gz: the gzip level, 0 (stored) to 9; 6 unless told (backups use 1, Wings' `best_speed`). */
  gzipLevel?: number;
}

export async function writeArchive(
  items: AsyncIterable<ArchiveItem>,
  format: ArchiveFormat,
  output: Writable,
  options: ArchiveWriteOptions = {},
): Promise<void> {
  if (format === 'zip') await writeZip(items, output);
  else await writeTarGz(items, output, options.gzipLevel ?? 6);
}

async function writeTarGz(items: AsyncIterable<ArchiveItem>, output: Writable, level: number): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(
    Readable.from(pack),
    (source: AsyncIterable<Uint8Array>) => coalesce(source, ZLIB_CHUNK),
    zlib.createGzip({ level, chunkSize: ZLIB_CHUNK }),
    output,
  );
  // The output failing (a full disk, a closed socket) must stop the walk at once, not leave it waiting on a
  // drain that never comes, nor leave `written` rejected with nobody listening yet.
  let failure: unknown;
  const stopped = written.then(
    () => undefined,
    (error: unknown) => {
      failure = error ?? new Error('The archive could not be written.');
    },
  );
  const assertWriting = () => {
    if (failure !== undefined) throw failure;
  };
  try {
    for await (const item of items) {
      assertWriting();
      const header = { name: item.name, mode: item.stats.mode & 0o7777, mtime: item.stats.mtime };
      if (item.stats.isDirectory()) {
        pack.entry({ ...header, type: 'directory' });
      } else if (item.linkTarget !== undefined) {
        pack.entry({ ...header, type: 'symlink', linkname: item.linkTarget });
      } else if (item.open !== undefined) {
        const opened = await item.open().catch(() => undefined);
        if (opened === undefined) continue; // gone or swapped for something else since the walk
        const { handle, size } = opened;
        let finish: (error?: Error | null) => void = () => undefined;
        const finished = new Promise<void>((resolve, reject) => {
          finish = (error) => (error ? reject(error) : resolve());
        });
        // Raced against `stopped` below: when the output failed first, the entry's own failure that follows
        // (the pack destroyed with it) has nobody left awaiting it and must not become an unhandled rejection,
        // which ends the daemon (a backup disk filling up did).
        finished.catch(() => undefined);
        const sink = pack.entry({ ...header, type: 'file', size }, (error) => finish(error));
        // tar-stream's entry is a streamx writable: written by hand, with its back-pressure.
        for await (const chunk of readExactly(handle, size)) {
          if (!sink.write(chunk as Buffer)) {
            const drained = once(sink, 'drain');
            drained.catch(() => undefined);
            await Promise.race([drained, stopped]);
          }
          assertWriting();
        }
        (sink as unknown as { end(): void }).end();
        await Promise.race([finished, stopped]);
        assertWriting();
      }
    }
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
  }
  await written;
}

async function writeZip(items: AsyncIterable<ArchiveItem>, output: Writable): Promise<void> {
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, output);
  for await (const item of items) {
    const options = { mtime: item.stats.mtime, mode: item.stats.mode & 0xffff };
    if (item.stats.isDirectory()) {
      zip.addEmptyDirectory(item.name, options);
    } else if (item.linkTarget !== undefined) {
      zip.addBuffer(Buffer.from(item.linkTarget), item.name, { ...options, compress: false });
    } else if (item.open !== undefined) {
      const open = item.open;
      // Lazily, so a large tree does not hold one descriptor per file while yazl works through its queue.
      zip.addReadStreamLazy(item.name, options, (callback) => {
        open().then(
          ({ handle, size }) => callback(null, readExactly(handle, size)),
          () => callback(null, Readable.from([])),
        );
      });
    }
  }
  zip.end();
  await written;
}
