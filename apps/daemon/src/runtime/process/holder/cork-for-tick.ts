import type { Writable } from 'node:stream';

const corked = new WeakSet<Writable>();

/**
 * Holds a stream's writes until the current tick's work is done, then sends them together: a game's flood reaches
 * the holder as chunks of many lines, and each line written to the daemon on its own cost a system call per line.
 * Nothing waits for a later event, so a lone line leaves as soon as it did before. (The daemon's websockets are not
 * corked the same way: holding every client's frames to the end of the tick made its RSS grow ~150 MiB in a flood,
 * bench/README.md.)
 */
export function corkForTick(stream: Writable): void {
  if (corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork();
  });
}
