import { fileURLToPath } from 'node:url';
import { STOP_DEADLINE_MS } from './shutdown';
import { supervise } from './supervisor';

const aerieBin = fileURLToPath(new URL('../../../../bin/aerie.mjs', import.meta.url));

/**
 * An `aerie up` that ends this soon after its first start, with an error, could not start (its configuration, a
 * port taken): it is shown once, not retried in a loop.
 */
const FIRST_START_MS = 10_000;

/**
 * `aerie start` (what `npm start` runs): `aerie up`, started again within seconds whenever it dies on its own (a
 * crash, the kernel's out-of-memory killer). Its daemon notices the old one gone and stops, leaving the game
 * servers running; the new one's daemon takes them over, as after any daemon restart. Stop signals are passed on
 * (Ctrl-C still ends the game servers, SIGTERM leaves them running), and `aerie up` stops should this process be
 * killed outright (AERIE_START_PID).
 */
export async function start(argv: readonly string[]): Promise<void> {
  let first = true;
  let finished: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finished = resolve;
  });
  const up = supervise({
    name: 'aerie up',
    command: process.execPath,
    args: [aerieBin, 'up', ...argv],
    env: { ...process.env, AERIE_START_PID: String(process.pid) },
    inheritOutput: true,
    // Past aerie up's own stop deadline: it always has the time it gives itself.
    stopTimeoutMs: STOP_DEADLINE_MS + 5_000,
    restartIf: ({ code, signal, ranMs }) => {
      const couldNotStart = first && code !== null && code !== 0 && ranMs < FIRST_START_MS;
      first = false;
      // 0: it was stopped on purpose (a signal sent to it alone, say); anything else is a crash.
      return signal !== null || (code !== 0 && !couldNotStart);
    },
    onEnd: (code) => finished(code ?? 1),
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      void up.stop(signal).then(() => finished(0));
    });
  }
  process.exitCode = await done;
}
