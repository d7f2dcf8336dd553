import type { Readable } from 'node:stream';

/** Wings assembles console lines up to 64 KiB; anything longer is cut there and the rest of the line dropped. */
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Calls `onLine` for each line of the stream (without `\n` / `\r\n`), a partial last line included once the stream
 * ends. A line never holds more than `maxBytes` bytes in memory: a game printing a 100 MB line costs 64 KiB.
 * Resolves when the stream has closed and the last line was delivered.
 */
export function forwardLines(
  stream: Readable,
  onLine: (line: string) => void,
  maxBytes = MAX_LINE_BYTES,
): Promise<void> {
  let parts: Buffer[] = [];
  let kept = 0;
  const flush = () => {
    let line = Buffer.concat(parts, kept);
    if (line.at(-1) === CARRIAGE_RETURN) line = line.subarray(0, -1);
    parts = [];
    kept = 0;
    onLine(line.toString('utf8'));
  };
  const keep = (bytes: Buffer) => {
    const room = maxBytes - kept;
    if (room <= 0 || bytes.length === 0) return;
    const part = bytes.length > room ? bytes.subarray(0, room) : bytes;
    // Copy: a subarray would pin the whole chunk for as long as the line is pending.
    parts.push(Buffer.from(part));
    kept += part.length;
  };
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      keep(chunk.subarray(start, end));
      flush();
      start = end + 1;
    }
    keep(chunk.subarray(start));
  });
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (kept > 0 || parts.length > 0) flush();
      resolve();
    };
    stream.once('end', finish);
    stream.once('close', finish);
    stream.once('error', finish);
  });
}
