import { onStopSignals, type StopCause, type StopRequests } from '@aerie/daemon/stop-signals';

/** How long `aerie up` and `aerie panel` may take to stop before they give up and exit 1. */
export const STOP_DEADLINE_MS = 20_000;

/**
 * What stops `aerie up` and `aerie panel`: a signal, or (aerie up) the `aerie start` that kept it running gone
 * without one; which came first is handed to the cleanup.
 */
export type StopSignal = StopCause;

/** Names a piece of the cleanup, so that a deadline passed can say what had not finished. */
export type ShutdownStep = <T>(name: string, work: Promise<T>) => Promise<T>;

export interface ShutdownOptions {
  print?: (line: string) => void;
  deadlineMs?: number;
}

/**
 * Runs `cleanup` once, for the first SIGINT, SIGTERM or SIGHUP, then exits: 0 when it is done, 1 when it fails or
 * has not finished by the deadline. Repeated signals, of any kind, only print one line: exiting halfway would
 * leave the daemon without the supervisor that was stopping it, and the first signal's choice stands.
 */
export function onShutdown(
  cleanup: (signal: StopSignal, step: ShutdownStep) => Promise<void>,
  options: ShutdownOptions = {},
): StopRequests {
  const print = options.print ?? console.log;
  const deadlineMs = options.deadlineMs ?? STOP_DEADLINE_MS;
  // The daemon's rule: the first signal decides, repeats of any kind only print one line.
  return onStopSignals((cause) => {
    const signal = cause as StopSignal;
    print(`${signal} received: shutting down…`);
    const unfinished = new Set<string>();
    const step: ShutdownStep = (name, work) => {
      unfinished.add(name);
      return work.finally(() => unfinished.delete(name));
    };
    const deadline = setTimeout(() => {
      const names = [...unfinished].join(', ') || 'the cleanup';
      print(`Shutting down took over ${deadlineMs / 1000} s; not finished: ${names}. Exiting.`);
      process.exit(1);
    }, deadlineMs);
    cleanup(signal, step).then(
      () => {
        clearTimeout(deadline);
        process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  }, print);
}
