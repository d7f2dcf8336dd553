import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import type {
  RuntimeEvents,
  RuntimeExit,
  RuntimeStartOptions,
  RuntimeUsage,
  ServerRuntime,
} from '../runtime';
import { substituteStartup } from '../wings-environment';
import { forwardLines } from './line-splitter';
import { ProcessGroupUsage } from './process-group-usage';
import type { ProcessSandbox } from './sandbox/process-sandbox';
import { SANDBOX_HOME } from './sandbox/sandbox-mounts';
import { signalInsideSandbox } from './sandbox/sandbox-signals';

/**
 * The shell leads the group and receives its signals too; left at their defaults it would die at once and the
 * exit of the main process would cut short the game's own graceful shutdown. With a no-op trap the shell lets
 * the game handle the signal, waits for it, and ends with its exit status (children get default handlers back).
 */
const SHELL_SURVIVES_STOP_SIGNALS = 'trap : HUP INT QUIT TERM ABRT USR1 USR2';

/** Leaders of the process groups this daemon runs now. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Process servers cannot outlive the daemon: their groups are detached, so a daemon that dies of an uncaught error
 * or calls process.exit would leave them running with nobody to read their console. `exit` handlers must be
 * synchronous, which a kill is.
 */
function killGroupsOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of liveGroups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
}

/**
 * The embedded runtime: the startup command runs through `/bin/sh -c` in the server's sandbox (its volume at
 * /home/container), led by bubblewrap in its own process group, so signals and kill reach whatever the command
 * started. Like a container, the server is over when its main process exits: anything it left behind is killed.
 */
export class ProcessRuntime extends EventEmitter<RuntimeEvents> implements ServerRuntime {
  readonly #sandbox: ProcessSandbox;
  #child: ChildProcessWithoutNullStreams | undefined;
  #sandboxed: false | 'bubblewrap' | 'unshare' = false;
  #uuid = '';
  #oomKillsBefore = 0;
  #running = false;
  #ended = false;
  /** A kill that arrived while the start was still checking the directory: carried out right after the spawn. */
  #killRequested = false;
  #memoryLimitBytes = 0;
  /** The usage of the process group the child leads; its first CPU figure measures from the spawn. */
  #group: ProcessGroupUsage | undefined;

  constructor(sandbox: ProcessSandbox) {
    super();
    this.#sandbox = sandbox;
  }

  get running(): boolean {
    return this.#running;
  }

  async start(options: RuntimeStartOptions): Promise<void> {
    if (this.#child)
      throw new Error('This runtime has already been started; create a new one for each start.');
    const directory = await stat(options.directory).catch(() => undefined);
    if (!directory?.isDirectory())
      throw new Error(`The server directory ${options.directory} does not exist.`);
    // Only the server's own variables reach it (the daemon's environment may hold secrets), plus PATH and HOME.
    const launch = await this.#sandbox.launch({
      uuid: options.uuid,
      volume: options.directory,
      mountPoint: SANDBOX_HOME,
      command: ['/bin/sh', '-c', `${SHELL_SURVIVES_STOP_SIGNALS}\n${substituteStartup(options.startup)}`],
      environment: options.environment,
      limits: options.limits,
    });
    this.#uuid = options.uuid;
    this.#sandboxed = launch.sandboxed;
    this.#oomKillsBefore = this.#sandbox.oomKills(options.uuid);
    const child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#memoryLimitBytes = options.limits.memoryMb > 0 ? options.limits.memoryMb * 1_000_000 : 0;
    const spawnedAt = Date.now();
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    this.#running = true;
    const leader = child.pid;
    if (leader !== undefined) {
      this.#group = new ProcessGroupUsage(leader, { spawnedAt });
      killGroupsOnExit();
      liveGroups.add(leader);
    }
    if (this.#killRequested) this.#signalGroupOf(child, 'SIGKILL');
    child.stdin.on('error', () => {
      // EPIPE when the process closed its stdin or died: a command to a dead process goes nowhere.
    });
    // Lines are capped at 64 KiB like Wings' console; the rest of a longer line is dropped.
    const emitLine = (line: string) => this.emit('output', line);
    const streamsClosed = Promise.all([
      forwardLines(child.stdout, emitLine),
      forwardLines(child.stderr, emitLine),
    ]);
    child.once('exit', (code, signal) => {
      this.#ended = true;
      // The main process is gone; children it left (daemons, `&` jobs) would keep the pipes open forever.
      this.#signalGroupOf(child, 'SIGKILL');
      if (leader !== undefined) liveGroups.delete(leader);
      const oomKilled = this.#sandbox.oomKills(this.#uuid) > this.#oomKillsBefore;
      const exit: RuntimeExit = oomKilled ? { code, signal, oomKilled } : { code, signal };
      void this.#sandbox.finished(this.#uuid);
      streamsClosed.then(() => {
        this.#running = false;
        this.emit('exit', exit);
      });
    });
  }

  write(line: string): void {
    const stdin = this.#child?.stdin;
    if (!this.#running || !stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${line}\n`);
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.#child || this.#ended) return;
    const leader = this.#child.pid;
    // SIGKILL may take bubblewrap along: the whole sandbox goes with it, which is what a kill wants.
    if (this.#sandboxed && leader !== undefined && signal !== 'SIGKILL') {
      void signalInsideSandbox(leader, signal, this.#sandboxed);
      return;
    }
    this.#signalGroupOf(this.#child, signal);
  }

  kill(): void {
    this.#killRequested = true;
    if (this.#child && !this.#ended) this.#signalGroupOf(this.#child, 'SIGKILL');
  }

  /** Sums the whole process group from /proc: the game is often a child of the shell, with children of its own. */
  async usage(): Promise<RuntimeUsage> {
    const idle = { memoryBytes: 0, memoryLimitBytes: 0, cpuAbsolute: 0, rxBytes: 0, txBytes: 0 };
    if (!this.#running || this.#ended || !this.#group) return idle;
    const sample = await this.#group.sample();
    return {
      ...idle,
      memoryBytes: sample.rssBytes,
      memoryLimitBytes: this.#memoryLimitBytes,
      cpuAbsolute: sample.cpuPercent,
    };
  }

  #signalGroupOf(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
    const pid = child.pid;
    if (pid === undefined) return;
    try {
      // A negative pid addresses the whole process group the detached child leads.
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already empty.
    }
  }
}
