import { createHash, randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ArchiveItem, writeArchive } from '@aerie/daemon/fs/archive-writer';
import {
  TRANSFER_ARCHIVE_FIELD,
  TRANSFER_CHECKSUM_FIELD,
} from '@aerie/shared/transfers/transfers-daemon-wire';

/** Backups' gzip level (Wings' `best_speed`): a transfer is bound by the network or the disk, not by size. */
const TRANSFER_GZIP_LEVEL = 1;

export interface TransferBodyOptions {
  items: AsyncIterable<ArchiveItem>;
  /** Bytes per second the archive may leave at; 0: as fast as the target takes it. */
  bytesPerSecond: number;
  /** Told the archive bytes sent so far, after each piece. */
  onProgress(sentBytes: number): void;
  signal: AbortSignal;
}

/**
 * The body of `POST /api/transfers`: `multipart/form-data` with the server's files as one tar.gz in the file field
 * `archive`, written as it is sent (no copy on the source's disk), then the field `checksum` with the SHA-256 of
 * the archive's bytes. Pulled by the HTTP client, so a slow target slows the walk rather than filling memory.
 */
export function transferBody(options: TransferBodyOptions): {
  contentType: string;
  body: AsyncGenerator<Uint8Array>;
} {
  const boundary = `----AerieTransfer${randomBytes(12).toString('hex')}`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: parts(boundary, options) };
}

async function* parts(boundary: string, options: TransferBodyOptions): AsyncGenerator<Uint8Array> {
  const archive = new PassThrough({ highWaterMark: 1024 * 1024 });
  const archived = writeArchive(options.items, 'tar.gz', archive, { gzipLevel: TRANSFER_GZIP_LEVEL });
  // A failed walk ends the reading below with its error.
  archived.catch((error: unknown) => archive.destroy(error as Error));
  const hash = createHash('sha256');
  const startedAt = Date.now();
  let sent = 0;
  try {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${TRANSFER_ARCHIVE_FIELD}"; filename="archive.tar.gz"\r\n` +
        'Content-Type: application/gzip\r\n\r\n',
    );
    for await (const chunk of archive as AsyncIterable<Buffer>) {
      // Cancelled: the request itself is aborted by the same signal; the body just stops (throwing here would
      // surface inside the HTTP client as an error nobody awaits).
      if (options.signal.aborted) return;
      hash.update(chunk);
      sent += chunk.length;
      options.onProgress(sent);
      yield chunk;
      if (options.bytesPerSecond > 0) {
        const ahead = startedAt + (sent / options.bytesPerSecond) * 1000 - Date.now();
        if (ahead > 0) await sleep(ahead);
      }
    }
    await archived;
    yield Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${TRANSFER_CHECKSUM_FIELD}"\r\n\r\n` +
        `${hash.digest('hex')}\r\n--${boundary}--\r\n`,
    );
  } finally {
    // Abandoned part-way (cancel, a target that hung up): the walk stops and its files are closed.
    archive.destroy();
    await archived.catch(() => undefined);
  }
}
