import type { Readable } from 'node:stream';
import type { HttpError } from '@aerie/panel/http/errors';

/**
 * Reads a stream of unannounced length whole, up to `limit` bytes: past it the stream is dropped and
 * `tooLarge()` thrown, so a body never costs more memory than the limit.
 */
export async function readAtMost(
  stream: Readable,
  limit: number,
  tooLarge: () => HttpError,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
