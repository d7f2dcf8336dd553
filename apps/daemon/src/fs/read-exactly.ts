import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

/**
 * Reads exactly `size` bytes from an open file and closes it: a file that grows meanwhile is cut at the size it
 * had (Wings reads up to the size stat'ed at open), one that shrinks is padded with zeros, so an archive never
 * disagrees with the sizes in its headers.
 */
export function readExactly(handle: FileHandle, size: number): Readable {
  return Readable.from(
    (async function* () {
      try {
        let position = 0;
        while (position < size) {
          const length = Math.min(256 * 1024, size - position);
          const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
          if (bytesRead === 0) {
            yield Buffer.alloc(size - position);
            return;
          }
          position += bytesRead;
          yield buffer.subarray(0, bytesRead);
        }
      } finally {
        await handle.close();
      }
    })(),
  );
}

/**
 * Bytes `start` to `end` (exclusive) of an open file, leaving the file open. A FileHandle's own read stream closes
 * the handle when destroyed early, even with autoClose off (Node 20), which readers that stop early would hit.
 */
export function readRange(handle: FileHandle, start: number, end = Number.POSITIVE_INFINITY): Readable {
  return Readable.from(
    (async function* () {
      let position = start;
      while (position < end) {
        const length = Math.min(256 * 1024, end - position);
        const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
        if (bytesRead === 0) return;
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    })(),
  );
}
