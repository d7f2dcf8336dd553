import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corkForTick } from './cork-for-tick';

/** A stream that records each write it is handed: one entry per system call a socket would make. */
function recordingStream() {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, writes };
}

describe('corkForTick', () => {
  it('sends the lines written in one tick together, in order', async () => {
    const { stream, writes } = recordingStream();
    for (const line of ['a\n', 'b\n', 'c\n']) {
      corkForTick(stream);
      stream.write(line);
    }
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([['a\n', 'b\n', 'c\n']]);
  });

  it('sends a lone line before any later event, and corks again on the next tick', async () => {
    const { stream, writes } = recordingStream();
    corkForTick(stream);
    stream.write('first\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([['first\n']]);
    corkForTick(stream);
    stream.write('second\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([['first\n'], ['second\n']]);
    expect(stream.writableCorked).toBe(0);
  });
});
