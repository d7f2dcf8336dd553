import type { FileHandle } from 'node:fs/promises';
import type { FilesystemError } from './filesystem-error';

/**
 * Writes everything `source` yields to an open file and returns the byte count, failing with `tooMuch()` as soon
 * as more than `limit` bytes arrive. `beforeWrite(total)` is told the running total before each piece is written
 * and may refuse it by throwing (a quota reservation growing with the data). Written by hand rather than through a FileHandle write stream, which keeps
 * its handle referenced and would make the later close() wait forever.
 */
export async function writeAll(
  handle: FileHandle,
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  limit = Number.POSITIVE_INFINITY,
  tooMuch?: () => FilesystemError,
  beforeWrite?: (totalBytes: number) => void,
): Promise<number> {
  let total = 0;
  for await (const piece of source) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    total += chunk.length;
    if (total > limit) {
      if (tooMuch !== undefined) throw tooMuch();
      throw new Error('Write limit exceeded');
    }
    beforeWrite?.(total);
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
      offset += bytesWritten;
    }
  }
  return total;
}
