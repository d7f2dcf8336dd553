import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { linkStaysInside } from '@aerie/daemon/fs/archive-links';
import { type ArchiveItem, writeArchive } from '@aerie/daemon/fs/archive-writer';

/** Wings' default `system.backups.compression_level` (`best_speed`). */
export const BACKUP_GZIP_LEVEL = 1;

export interface WrittenBackup {
  /** Hex SHA-1 of the archive's bytes, as written. */
  checksum: string;
  size: number;
}

/**
 * Writes the items as a tar.gz to `destination` (created, never replaced: 0600), hashing and counting the bytes
 * as they go to disk. A file that grows or shrinks while it is read keeps the size it had when it was opened (cut,
 * or padded with zeros: the archive never disagrees with its headers, Wings' old "write too long"); one that is
 * gone by its turn is left out.
 * @throws what the walk or the disk threw; the caller removes the partial file
 */
export async function writeBackupFile(
  items: AsyncIterable<ArchiveItem>,
  destination: string,
  gzipLevel = BACKUP_GZIP_LEVEL,
): Promise<WrittenBackup> {
  const hash = createHash('sha1');
  let size = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  // A callback-based stream on its own descriptor, not a FileHandle's: under load, a FileHandle stream destroyed by
  // a full disk could leave one write's rejected promise unhandled (CI saw an uncaught ENOSPC).
  const file = createWriteStream(destination, { flags: 'wx', mode: 0o600 });
  await once(file, 'open');
  const written = pipeline(counting, file);
  const archived = writeArchive(items, 'tar.gz', counting, { gzipLevel });
  // Either side failing ends both: a full disk stops the archive, a failed walk closes the file.
  const results = await Promise.allSettled([archived, written]);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  return { checksum: hash.digest('hex'), size };
}

/**
 * The walk's items, less the symbolic links a restore would refuse (pointing outside the server's files, see
 * fs/archive-links.ts), each told to `leftOut`: whatever a backup holds can be restored.
 */
export async function* restorableItems(
  items: AsyncIterable<ArchiveItem>,
  leftOut: (name: string, target: string) => void,
): AsyncGenerator<ArchiveItem> {
  for await (const item of items) {
    if (item.linkTarget !== undefined && !linkStaysInside(item.name.split('/'), item.linkTarget)) {
      leftOut(item.name, item.linkTarget);
      continue;
    }
    yield item;
  }
}
