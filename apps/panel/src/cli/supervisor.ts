import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface SupervisorOptions {
  /** Shown before each line of the child's output. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  /** First restart delay; doubles with each crash in a row up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A child that ran this long before crashing counts as healthy: the backoff starts over. */
  stableAfterMs?: number;
  /** How long stop() waits after its signal before SIGKILL: longer than the child's own stop deadline. */
  stopTimeoutMs?: number;
  /** The child writes to this process's own stdout and stderr (no name before its lines). */
  inheritOutput?: boolean;
  /** Whether an exit the supervisor did not ask for is restarted (default: always); when not, `onEnd` hears it. */
  restartIf?: (exit: { code: number | null; signal: NodeJS.Signals | null; ranMs: number }) => boolean;
  onEnd?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface Supervised {
  /** Number of restarts after crashes so far. */
  readonly restarts: number;
  readonly pid: number | undefined;
  /**
   * Stops the child and its restarts: Ctrl-C (SIGINT) is passed on as SIGINT, anything else as SIGTERM (the
   * daemon ends its game servers only on SIGINT).
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Keeps a child process running: it is restarted with exponential backoff when it exits on its own, and
 * stopped (the signal it is given, then SIGKILL after a grace period) by stop().
 */
export function supervise(options: SupervisorOptions): Supervised {
  const print = options.print ?? console.log;
  const initial = options.initialBackoffMs ?? 1000;
  const max = options.maxBackoffMs ?? 30_000;
  const stableAfter = options.stableAfterMs ?? 30_000;
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let crashesInARow = 0;
  let timer: NodeJS.Timeout | undefined;

  const pipe = (stream: NodeJS.ReadableStream | null) => {
    if (stream) createInterface({ input: stream }).on('line', (line) => print(`[${options.name}] ${line}`));
  };

  const start = () => {
    const startedAt = Date.now();
    const current = spawn(options.command, options.args, {
      env: options.env ?? process.env,
      stdio: [
        'ignore',
        options.inheritOutput ? 'inherit' : 'pipe',
        options.inheritOutput ? 'inherit' : 'pipe',
      ],
    });
    child = current;
    pipe(current.stdout);
    pipe(current.stderr);
    current.on('error', (error) => print(`[${options.name}] could not start: ${error.message}`));
    current.on('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return;
      if (options.restartIf && !options.restartIf({ code, signal, ranMs: Date.now() - startedAt })) {
        stopping = true;
        options.onEnd?.(code, signal);
        return;
      }
      crashesInARow = Date.now() - startedAt >= stableAfter ? 1 : crashesInARow + 1;
      const delay = Math.min(max, initial * 2 ** (crashesInARow - 1));
      print(`[${options.name}] exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      timer = setTimeout(() => {
        timer = undefined;
        restarts++;
        start();
      }, delay);
    });
  };
  start();

  return {
    get restarts() {
      return restarts;
    },
    get pid() {
      return child?.pid;
    },
    async stop(signal?: NodeJS.Signals) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      // The child may exit before its last lines (a goodbye, an error) are read from its pipes: wait for 'close',
      // but not for ever after 'exit' (a grandchild holding the pipes open would keep them so). 3 s: a loaded
      // machine (CI) took more than 1 s to deliver the daemon's last line after its exit.
      const exited = new Promise<void>((resolve) => {
        running.once('close', () => resolve());
        running.once('exit', () => setTimeout(resolve, 3000).unref());
      });
      running.kill(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
      const grace = setTimeout(() => running.kill('SIGKILL'), options.stopTimeoutMs ?? 5000);
      await exited;
      clearTimeout(grace);
    },
  };
}
