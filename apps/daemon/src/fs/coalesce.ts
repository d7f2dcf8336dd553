/**
 * Joins small chunks into pieces of at least `size` bytes. zlib runs one threadpool job per chunk written to it,
 * and a tar stream is mostly small chunks (a 512-byte header per entry, padding, small files): joined, the
 * compressor gets few large jobs instead of tens of thousands of tiny ones.
 */
export async function* coalesce(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of source) {
    if (length === 0 && chunk.length >= size) {
      yield chunk; // already large: no copy
      continue;
    }
    parts.push(chunk);
    length += chunk.length;
    if (length >= size) {
      yield Buffer.concat(parts, length);
      parts = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.concat(parts, length);
}
