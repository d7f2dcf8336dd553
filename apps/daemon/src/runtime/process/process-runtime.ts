import { EventEmitter } from 'node:events';
import { mkdir, stat } from 'node:fs/promises';
import type {
  AdoptedRuntime,
  RuntimeEvents,
  RuntimeExit,
  RuntimeStartOptions,
  RuntimeUsage,
} from '@aerie/daemon/runtime/runtime';
import { substituteStartup } from '@aerie/daemon/runtime/wings-environment';
import { HolderConnection } from './holder/holder-connection';
import { launchHolder } from './holder/holder-launch';
import type { HolderExit } from './holder/holder-protocol';
import { holderSocketPath } from './holder/holder-socket';
import { ProcessGroupUsage } from './process-group-usage';
import { endRecorded, identify, removeRunRecord, writeRunRecord } from './run-records';
import type { ProcessSandbox } from './sandbox/process-sandbox';
import { SANDBOX_HOME } from './sandbox/sandbox-mounts';

/**
 * The shell leads the group and receives its signals too; left at their defaults it would die at once and the
 * exit of the main process would cut short the game's own graceful shutdown. With a no-op trap the shell lets
 * the game handle the signal, waits for it, and ends with its exit status (children get default handlers back).
 */
const SHELL_SURVIVES_STOP_SIGNALS = 'trap : HUP INT QUIT TERM ABRT USR1 USR2';

const IDLE: RuntimeUsage = { memoryBytes: 0, memoryLimitBytes: 0, cpuAbsolute: 0, rxBytes: 0, txBytes: 0 };

/** Where a process runtime keeps its holders' sockets and run records, and the sandbox it launches in. */
export interface ProcessRuntimeContext {
  sandbox: ProcessSandbox;
  /** `DAEMON_DATA_DIR/run` (0700): `<uuid>.sock`, `<uuid>.json`. */
  runDirectory: string;
}

/**
 * The embedded runtime: the startup command runs through `/bin/sh -c` in the server's sandbox (its volume at
 * /home/container), led by bubblewrap in its own process group, under a holder (see holder-main.ts) that keeps it
 * and its console alive when the daemon goes. Like a container, the server is over when its main process exits:
 * anything it left behind is killed.
 */
export class ProcessRuntime extends EventEmitter<RuntimeEvents> implements AdoptedRuntime {
  readonly #context: ProcessRuntimeContext;
  #startCalled = false;
  #holder: HolderConnection | undefined;
  #uuid = '';
  #oomKillsBefore = 0;
  #memoryLimitBytes = 0;
  #startedAt = 0;
  #running = false;
  #ended = false;
  /** A kill that arrived while the start was still under way: carried out once the holder answers. */
  #killRequested = false;
  /** The usage of the process group the game's launcher leads. */
  #group: ProcessGroupUsage | undefined;

  constructor(context: ProcessRuntimeContext) {
    super();
    this.#context = context;
  }

  /** A runtime for a game an earlier daemon started, driven through its holder; follow() starts the flow. */
  static adopted(context: ProcessRuntimeContext, holder: HolderConnection): ProcessRuntime {
    const runtime = new ProcessRuntime(context);
    runtime.#startCalled = true;
    runtime.#take(holder);
    return runtime;
  }

  get running(): boolean {
    return this.#running;
  }

  get startedAt(): number {
    return this.#startedAt;
  }

  async start(options: RuntimeStartOptions): Promise<void> {
    if (this.#startCalled)
      throw new Error('This runtime has already been started; create a new one for each start.');
    this.#startCalled = true;
    const directory = await stat(options.directory).catch(() => undefined);
    if (!directory?.isDirectory())
      throw new Error(`The server directory ${options.directory} does not exist.`);
    const { sandbox, runDirectory } = this.#context;
    const socketPath = holderSocketPath(runDirectory, options.uuid);
    // Only the server's own variables reach it (the daemon's environment may hold secrets), plus PATH and HOME.
    const launch = await sandbox.launch({
      uuid: options.uuid,
      volume: options.directory,
      mountPoint: SANDBOX_HOME,
      command: ['/bin/sh', '-c', `${SHELL_SURVIVES_STOP_SIGNALS}\n${substituteStartup(options.startup)}`],
      environment: options.environment,
      limits: options.limits,
      allocations: options.allocations,
      mounts: options.mounts,
    });
    this.#uuid = options.uuid;
    try {
      await mkdir(runDirectory, { recursive: true, mode: 0o700 });
      const launched = await launchHolder(socketPath, {
        uuid: options.uuid,
        file: launch.file,
        args: launch.args,
        cwd: launch.cwd,
        env: launch.env,
        sandboxed: launch.sandboxed,
        meta: {
          memoryLimitBytes: options.limits.memoryMb > 0 ? options.limits.memoryMb * 1_000_000 : 0,
          oomKillsBefore: sandbox.oomKills(options.uuid),
        },
      });
      await writeRunRecord(runDirectory, options.uuid, 'server', {
        holder: identify(launched.holderPid),
        leader: identify(launched.leaderPid),
      });
      const holder = await HolderConnection.open(socketPath).catch(async (error: unknown) => {
        await endRecorded(runDirectory, options.uuid, 'server');
        throw error;
      });
      this.#take(holder);
    } catch (error) {
      await sandbox.finished(options.uuid);
      throw error;
    }
    this.follow();
    if (this.#killRequested) this.#holder?.kill();
  }

  follow(): void {
    this.#holder?.attach(0);
  }

  write(line: string): void {
    if (this.#running && !this.#ended) this.#holder?.write(line);
  }

  signal(signal: NodeJS.Signals): void {
    if (this.#running && !this.#ended) this.#holder?.signal(signal);
  }

  kill(): void {
    this.#killRequested = true;
    if (!this.#ended) this.#holder?.kill();
  }

  /**
   * The server's control group's memory where it has one; otherwise the whole process group's RSS from /proc (the
   * game is often a child of the shell, with children of its own). CPU always from /proc.
   */
  async usage(): Promise<RuntimeUsage> {
    if (!this.#running || this.#ended || !this.#group) return IDLE;
    const sample = await this.#group.sample();
    return {
      ...IDLE,
      memoryBytes: this.#context.sandbox.memoryInUse(this.#uuid) ?? sample.rssBytes,
      memoryLimitBytes: this.#memoryLimitBytes,
      cpuAbsolute: sample.cpuPercent,
    };
  }

  #take(holder: HolderConnection): void {
    const { hello } = holder;
    this.#holder = holder;
    this.#uuid = hello.uuid;
    this.#startedAt = hello.startedAt;
    this.#memoryLimitBytes = hello.meta.memoryLimitBytes;
    this.#oomKillsBefore = hello.meta.oomKillsBefore;
    this.#group = new ProcessGroupUsage(hello.pid, { spawnedAt: Date.now() });
    this.#running = true;
    holder.on('line', (line) => this.emit('output', line.s));
    holder.once('exit', (exit) => void this.#finish(exit));
    // The holder died without its game's exit: what it left (unsandboxed, or no --die-with-parent) is ended.
    holder.once('lost', () => void this.#onHolderLost());
  }

  async #onHolderLost(): Promise<void> {
    await endAbandonedRun(this.#context, this.#uuid);
    await this.#finish({ code: null, signal: 'SIGKILL' });
  }

  async #finish(exit: HolderExit): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const { runDirectory, sandbox } = this.#context;
    const oomKilled = sandbox.oomKills(this.#uuid) > this.#oomKillsBefore;
    this.#holder?.release();
    await removeRunRecord(runDirectory, this.#uuid, 'server');
    // Awaited: a daemon stopping with its games (Ctrl-C) exits once they have, and a network namespace left behind
    // would keep forwarding the game's host ports to nothing until a daemon on the same data directory swept it.
    await sandbox.finished(this.#uuid).catch(() => {});
    this.#running = false;
    const result: RuntimeExit = oomKilled ? { ...exit, oomKilled } : { ...exit };
    this.emit('exit', result);
  }
}

/**
 * Ends what a run left once its holder is gone (it died, hangs, or speaks another protocol): the processes its
 * record names and, for a root daemon, whatever is still in the server's control groups.
 */
export async function endAbandonedRun(context: ProcessRuntimeContext, uuid: string): Promise<void> {
  await endRecorded(context.runDirectory, uuid, 'server');
  if (context.sandbox.endLeftovers(uuid) > 0) await context.sandbox.finished(uuid);
}
