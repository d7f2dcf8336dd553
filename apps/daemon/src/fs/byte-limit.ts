import { Transform, type TransformCallback } from 'node:stream';
import type { FilesystemError } from './filesystem-error';

/** Passes bytes through and fails the stream with `error` once more than `limit` bytes went by. */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly error: () => FilesystemError,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      callback(this.error());
      return;
    }
    callback(null, chunk);
  }
}
