/** How long the daemon may take to stop before it gives up and exits 1 (`aerie up` waits longer than this). */
export const DAEMON_STOP_DEADLINE_MS = 15_000;

/** What made the daemon stop: a signal, or the supervising `aerie up` vanishing without one. */
export type StopCause = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'supervisor gone';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Only Ctrl-C ends the game servers with the daemon (they start again at the next boot). SIGTERM and SIGHUP (a
 * service manager, an upgrade) and a lost supervisor leave them running for the next daemon to take over.
 */
export const leavesServersRunning = (cause: StopCause): boolean => cause !== 'SIGINT';

export interface StopRequests {
  /** The cause that started the stop, once there is one. */
  readonly cause: StopCause | undefined;
  /** Asks for a stop as a signal would (the supervisor watch). */
  request(cause: StopCause): void;
}

/**
 * Calls `stop` once, for the first stop signal or request. The first decides: later ones, of any kind, only print
 * (once) that the daemon is already stopping. `process.on`, not `once`: with no listener left, a second SIGTERM (`aerie
 * up` forwards the one its process group also sent here) would kill the daemon halfway through its cleanup.
 */
export function onStopSignals(
  stop: (cause: StopCause) => void,
  print: (line: string) => void = console.log,
): StopRequests {
  let cause: StopCause | undefined;
  let toldAlready = false;
  const request = (next: StopCause) => {
    if (cause !== undefined) {
      // Once: a burst of signals (a key held down, a process group and its supervisor) is one line.
      if (!toldAlready) print(`${next}: already stopping (since ${cause}).`);
      toldAlready = true;
      return;
    }
    cause = next;
    stop(next);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, request);
  return {
    get cause() {
      return cause;
    },
    request,
  };
}

/**
 * Runs the named cleanup steps side by side, then exits: 0 once all are done, 1 when one fails or, at the
 * deadline, with a line naming the steps that had not finished.
 */
export function finishWithin(
  steps: Record<string, Promise<unknown>>,
  options: { deadlineMs: number; print?: (line: string) => void; exit?: (code: number) => void },
): void {
  const print = options.print ?? console.log;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const unfinished = new Set(Object.keys(steps));
  const deadline = setTimeout(() => {
    print(`Stopping took over ${options.deadlineMs / 1000} s; not finished: ${[...unfinished].join(', ')}.`);
    exit(1);
  }, options.deadlineMs);
  const tracked = Object.entries(steps).map(([name, step]) =>
    step.then(() => {
      unfinished.delete(name);
    }),
  );
  Promise.all(tracked).then(
    () => {
      clearTimeout(deadline);
      exit(0);
    },
    (error: unknown) => {
      clearTimeout(deadline);
      console.error(error);
      exit(1);
    },
  );
}
