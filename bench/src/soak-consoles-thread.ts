import type { Worker } from 'node:worker_threads';
import type { ConsoleResult } from './soak-consoles';
import type { SoakServer } from './soak-panel';
import { startTsWorker } from './ts-worker';

export interface ConsoleThreadOptions {
  url: string;
  sessions: readonly string[];
  servers: readonly SoakServer[];
  perServer: number;
}

export type ConsoleCommand =
  | { kind: 'start'; commandMs: number }
  | { kind: 'stop' }
  | { kind: 'result' }
  | { kind: 'close' };

/**
 * The soak's console sockets, opened and read on a worker thread: 2,000 sockets' traffic on the thread that times
 * the API mix would delay its timers and its answers, and the mix's latencies would then be the generator's own.
 * The commands are sent from the worker too, on its own clock.
 */
export async function openSoakConsolesThread(options: ConsoleThreadOptions) {
  const worker = startTsWorker(new URL('./soak-consoles-worker.ts', import.meta.url), options);
  let nextId = 1;
  const waiting = new Map<number, (value: unknown) => void>();
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  failed.catch(() => undefined);
  worker.on('message', ({ id, value }: { id: number; value: unknown }) => {
    waiting.get(id)?.(value);
    waiting.delete(id);
  });
  const ready = new Promise((resolve) => waiting.set(0, resolve));
  await Promise.race([ready, failed]);
  const ask = (command: ConsoleCommand) =>
    Promise.race([
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        (worker as Worker).postMessage({ id, command });
      }),
      failed,
    ]);
  return {
    /** Counts from zero and sends one `say` on every server each `commandMs`. */
    start: (commandMs: number) => ask({ kind: 'start', commandMs }),
    stop: () => ask({ kind: 'stop' }),
    /** What the sockets saw since `start`, and the worker's event-loop delay meanwhile. */
    result: () => ask({ kind: 'result' }) as Promise<ConsoleResult & { loopDelayP99Ms: number }>,
    async close() {
      await ask({ kind: 'close' });
      await worker.terminate();
    },
  };
}
