import { EventEmitter } from 'node:events';
import type {
  AdoptedRuntime,
  RuntimeExit,
  RuntimeStartOptions,
  ServerRuntime,
} from '@aerie/daemon/runtime/runtime';
import { doneMatcher, type LineMatcher } from '@aerie/shared/eggs/done-matcher';
import type { StopAction } from '@aerie/shared/eggs/stop-command';
import type { PowerAction, ServerState } from './console-server';
import { PowerLock } from './power-lock';

export type { PowerAction, ServerState };

/** Everything a runtime start takes, the startup command named `invocation` as in the panel. */
export interface GameServerOptions extends Omit<RuntimeStartOptions, 'startup'> {
  /** The startup command, `{{VAR}}` placeholders intact. */
  invocation: string;
  /** The egg's `startup.done` (plain substrings or `regex:`) and `strip_ansi`. */
  done: string | readonly string[];
  stripAnsi?: boolean;
  /** The egg's stop, parsed by parseStopCommand. */
  stop: StopAction;
  /** A fresh runtime for each start. */
  createRuntime: () => ServerRuntime;
  /** How long a stop waits for the process to exit before killing it. Wings: 10 minutes. */
  stopTimeoutMs?: number;
  /** A crash within this long of the previous one is not restarted. Wings: 60 s; 0 = always restart. */
  crashTimeoutMs?: number;
  /**
   * Runs under the power lock before each start (manual, restart or crash restart), before the state leaves
   * offline: the place to sync the configuration and check the disk. Throwing refuses the start.
   */
  beforeStart?: () => Promise<void>;
  /** The clock for the crash guard (tests inject one). */
  now?: () => number;
}

export interface GameServerEvents {
  status: [state: ServerState];
  /** A console line of the game server. */
  output: [line: string];
  /** A line the daemon itself says on the console (crash notices). */
  daemon: [message: string];
}

/** `60 seconds`, `1 second`: a duration for a console line, never `0 seconds`. */
const secondsText = (ms: number) => {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
};

export class ServerStateError extends Error {
  override name = 'ServerStateError';
}

/**
 * One game server's lifecycle, as in Wings: offline → starting → running (on the egg's done line) → stopping →
 * offline. Start, stop and restart take the power lock; kill never waits for it. An exit nobody asked for while
 * starting or running is a crash, restarted unless the previous crash was too recent.
 */
export class GameServer extends EventEmitter<GameServerEvents> {
  readonly uuid: string;
  #options: GameServerOptions;
  #isDone: LineMatcher;
  readonly #lock = new PowerLock();
  readonly #now: () => number;
  #state: ServerState = 'offline';
  #runtime: ServerRuntime | undefined;
  #exited: Promise<RuntimeExit> | undefined;
  #lastCrashAt: number | undefined;
  #startedAt: number | undefined;

  constructor(options: GameServerOptions) {
    super();
    this.uuid = options.uuid;
    this.#options = options;
    this.#isDone = doneMatcher({ done: options.done, strip_ansi: options.stripAnsi });
    this.#now = options.now ?? Date.now;
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The options the next start uses (a sync from the panel); a running process keeps what it started with. */
  get options(): Readonly<GameServerOptions> {
    return this.#options;
  }

  /** Takes new settings (the panel's configuration changed); they apply from the next start. */
  reconfigure(changes: Partial<Omit<GameServerOptions, 'uuid'>>): void {
    this.#options = { ...this.#options, ...changes };
    this.#isDone = doneMatcher({ done: this.#options.done, strip_ansi: this.#options.stripAnsi });
  }

  /** ms since the current process started; 0 when there is none. */
  get uptimeMs(): number {
    return this.#startedAt === undefined ? 0 : Math.max(0, Date.now() - this.#startedAt);
  }

  /** True while a start, stop or restart is under way (or waiting its turn). */
  get powerLocked(): boolean {
    return this.#lock.held;
  }

  /**
   * Stops with a grace period of its own (disk limit: 60 s, reinstall: 10 s), then kills. Waits up to `waitMs`
   * for the power lock; if another action still holds it, kills at once.
   */
  async stopWithin(timeoutMs: number, waitMs = 0): Promise<void> {
    const release = await this.#lock.acquire(waitMs).catch(() => undefined);
    if (!release) return this.kill();
    try {
      await this.#stop(timeoutMs);
    } finally {
      release();
    }
  }

  /** The runtime of the current process (for usage samples), if there is one. */
  get runtime(): ServerRuntime | undefined {
    return this.#runtime;
  }

  /**
   * Runs a power action. `waitMs` is how long start/stop/restart wait for another action to finish
   * (0: refuse at once with PowerLockedError). Kill never waits.
   */
  async power(action: PowerAction, waitMs = 0): Promise<void> {
    if (action === 'kill') return this.kill();
    const release = await this.#lock.acquire(waitMs);
    try {
      if (action === 'start') await this.#start();
      else if (action === 'stop') await this.#stop();
      else {
        await this.#stop();
        await this.#start();
      }
    } finally {
      release();
    }
  }

  /** Writes a console command to the game server; refused when it is not running. */
  sendCommand(command: string): void {
    if (!this.#runtime?.running || this.#state === 'offline') {
      throw new ServerStateError('The server is not running.');
    }
    this.#runtime.write(command);
  }

  /** Ends the process at once, from any state, even while another power action holds the lock. */
  async kill(): Promise<void> {
    const runtime = this.#runtime;
    const exited = this.#exited;
    if (!runtime || !exited) return;
    // Not a crash: the exit was asked for.
    if (this.#state !== 'offline') this.#setState('stopping');
    runtime.kill();
    await exited;
  }

  /**
   * Takes over a process an earlier daemon started (found running at boot) in the state that daemon left it:
   * `starting` waits for the done line (the kept lines are read first), `stopping` is finished by the caller,
   * anything else is `running`. An exit that came while no daemon listened arrives after the kept lines, and
   * counts as a crash if the server was meant to be up.
   */
  adopt(runtime: AdoptedRuntime, previous: ServerState | undefined): void {
    if (this.#runtime) throw new ServerStateError('The server is already running.');
    this.#watch(runtime);
    this.#startedAt = runtime.startedAt;
    this.#setState(previous === 'starting' || previous === 'stopping' ? previous : 'running');
    runtime.follow();
  }

  /** The runtime becomes the server's: its lines, and its exit (a crash unless asked for). */
  #watch(runtime: ServerRuntime): (exit: RuntimeExit) => void {
    this.#runtime = runtime;
    let ended: (exit: RuntimeExit) => void = () => {};
    this.#exited = new Promise((resolve) => {
      ended = resolve;
      runtime.once('exit', resolve);
    });
    runtime.on('output', (line) => this.#onOutput(line));
    runtime.once('exit', (exit) => this.#onExit(runtime, exit));
    return ended;
  }

  async #start(): Promise<void> {
    if (this.#state !== 'offline') throw new ServerStateError('The server is already running.');
    await this.#options.beforeStart?.();
    if (this.#state !== 'offline') throw new ServerStateError('The server is already running.');
    const runtime = this.#options.createRuntime();
    const startFailed = this.#watch(runtime);
    this.#setState('starting');
    try {
      const options = this.#options;
      await runtime.start({
        uuid: options.uuid,
        directory: options.directory,
        startup: options.invocation,
        environment: options.environment,
        image: options.image,
        limits: options.limits,
        allocations: options.allocations,
        mounts: options.mounts,
      });
      this.#startedAt = Date.now();
    } catch (error) {
      // A kill waiting for this process must not wait forever.
      startFailed({ code: null, signal: null });
      // Through stopping, so a failed start does not look like a crash.
      this.#runtime = undefined;
      this.#exited = undefined;
      this.#setState('stopping');
      this.#setState('offline');
      throw error;
    }
  }

  async #stop(timeoutMs = this.#options.stopTimeoutMs ?? 10 * 60_000): Promise<void> {
    const runtime = this.#runtime;
    const exited = this.#exited;
    if (this.#state === 'offline' || !runtime || !exited) return;
    this.#setState('stopping');
    const { stop } = this.#options;
    if (stop.type === 'command') runtime.write(stop.value);
    else runtime.signal(stop.value);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.emit('daemon', `Server did not stop within ${secondsText(timeoutMs)}, killing it.`);
      runtime.kill();
      await exited;
    }
  }

  #onOutput(line: string): void {
    this.emit('output', line);
    if (this.#state === 'starting' && this.#isDone(line)) this.#setState('running');
  }

  #onExit(runtime: ServerRuntime, exit: RuntimeExit): void {
    if (this.#runtime !== runtime) return;
    const crashed = this.#state === 'starting' || this.#state === 'running';
    this.#runtime = undefined;
    this.#exited = undefined;
    this.#startedAt = undefined;
    this.#setState('offline');
    if (crashed) this.#onCrash(exit);
  }

  /** Wings' crash handling: say so on the console, restart unless the last crash was too recent. */
  #onCrash(exit: RuntimeExit): void {
    this.emit('daemon', '---------- Detected server process in a crashed state! ----------');
    this.emit('daemon', `Exit code: ${exit.code ?? exit.signal ?? 'unknown'}`);
    this.emit('daemon', `Out of memory: ${exit.oomKilled === true}`);
    const guardMs = this.#options.crashTimeoutMs ?? 60_000;
    const now = this.#now();
    if (guardMs > 0 && this.#lastCrashAt !== undefined && now - this.#lastCrashAt < guardMs) {
      this.emit(
        'daemon',
        `Aborting automatic restart, last crash occurred less than ${secondsText(guardMs)} ago.`,
      );
      return;
    }
    this.#lastCrashAt = now;
    this.power('start').catch((error: unknown) => {
      this.emit(
        'daemon',
        `Could not restart the server: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  #setState(state: ServerState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.emit('status', state);
  }
}
