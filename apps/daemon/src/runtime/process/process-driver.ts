import { spawn } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import type {
  AdoptedRuntime,
  InstallOptions,
  RuntimeDriver,
  ServerRuntime,
} from '@aerie/daemon/runtime/runtime';
import { HolderConnection } from './holder/holder-connection';
import { holderSocketPath } from './holder/holder-socket';
import { forwardLines } from './line-splitter';
import { endAbandonedRun, ProcessRuntime, type ProcessRuntimeContext } from './process-runtime';
import { endRecorded, identify, removeRunRecord, writeRunRecord } from './run-records';
import type { ProcessSandbox } from './sandbox/process-sandbox';
import { SANDBOX_INSTALL_MOUNT, SANDBOX_SCRIPT_MOUNT } from './sandbox/sandbox-mounts';

/**
 * The embedded driver: servers run as sandboxed process groups on this machine. An install script runs in `bash`
 * in the same sandbox as its server, with the server's files at /mnt/server and the script at /mnt/install, as in
 * Wings' installer container. Without a sandbox (RUNTIME=process-unsafe) `/mnt/server` is rewritten instead.
 */
export class ProcessDriver implements RuntimeDriver {
  readonly name = 'process';
  readonly #tmpDirectory: string;
  readonly #sandbox: ProcessSandbox;
  readonly #context: ProcessRuntimeContext;

  /**
   * @param tmpDirectory where install scripts are written (the daemon's `tmp/`)
   * @param runDirectory where holders answer and runs are recorded (the daemon's `run/`)
   */
  constructor(options: { tmpDirectory?: string; runDirectory: string; sandbox: ProcessSandbox }) {
    this.#tmpDirectory = options.tmpDirectory ?? tmpdir();
    this.#sandbox = options.sandbox;
    this.#context = { sandbox: options.sandbox, runDirectory: options.runDirectory };
  }

  get sandbox(): ProcessSandbox {
    return this.#sandbox;
  }

  fileOwner(uuid: string): Promise<{ uid: number; gid: number } | undefined> {
    return this.#sandbox.ownerOf(uuid);
  }

  createRuntime(): ServerRuntime {
    return new ProcessRuntime(this.#context);
  }

  /**
   * The game an earlier daemon left running, through its holder. Anything that cannot be driven any more (a
   * holder that died, hangs or speaks another protocol; an install cut short) is ended first, found by its run
   * record and, for a root daemon, by the server's control groups.
   */
  sweep(running: ReadonlySet<string>): Promise<number> {
    return this.#sandbox.sweepNetwork(running);
  }

  async adopt(uuid: string): Promise<AdoptedRuntime | undefined> {
    const { runDirectory } = this.#context;
    const socketPath = holderSocketPath(runDirectory, uuid);
    await endRecorded(runDirectory, uuid, 'install');
    const holder = await HolderConnection.open(socketPath).catch(() => undefined);
    if (holder?.hello.uuid === uuid) return ProcessRuntime.adopted(this.#context, holder);
    holder?.close();
    await endAbandonedRun(this.#context, uuid);
    await rm(socketPath, { force: true });
    return undefined;
  }

  async install(options: InstallOptions): Promise<{ exitCode: number }> {
    const scriptDirectory = path.join(this.#tmpDirectory, options.uuid);
    await mkdir(scriptDirectory, { recursive: true, mode: 0o700 });
    const scriptFile = path.join(scriptDirectory, 'install.sh');
    const unsafe = this.#sandbox.kind === 'unsafe';
    const script = unsafe
      ? options.script.replaceAll(SANDBOX_INSTALL_MOUNT, options.directory)
      : options.script;
    // Readable by the server's uid through the read-only bind; the folder around it stays the daemon's.
    await writeFile(scriptFile, script, { mode: 0o755 });
    await chmod(scriptDirectory, 0o755);
    try {
      return await this.#runScript(
        unsafe ? scriptFile : `${SANDBOX_SCRIPT_MOUNT}/install.sh`,
        scriptDirectory,
        options,
      );
    } finally {
      await rm(scriptDirectory, { recursive: true, force: true });
    }
  }

  async destroy(_uuid: string): Promise<void> {
    // Nothing outside the server's directory belongs to a process server.
  }

  async #runScript(
    scriptFile: string,
    scriptDirectory: string,
    options: InstallOptions,
  ): Promise<{ exitCode: number }> {
    if (options.signal?.aborted) return { exitCode: 1 };
    const launch = await this.#sandbox.launch({
      uuid: options.uuid,
      volume: options.directory,
      mountPoint: SANDBOX_INSTALL_MOUNT,
      readonly: [{ source: scriptDirectory, target: SANDBOX_SCRIPT_MOUNT }],
      // stderr joins stdout in one pipe, as on the installer container's terminal, so lines keep their order.
      command: ['bash', '-c', 'exec bash "$0" 2>&1', scriptFile],
      environment: options.environment,
      limits: options.limits,
    });
    const child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      // Its own process group, so an abort ends whatever the script started too.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // An install dies with the daemon (bubblewrap's --die-with-parent); a record finds what would not.
    const { runDirectory } = this.#context;
    const recorded = mkdir(runDirectory, { recursive: true, mode: 0o700 }).then(
      () => writeRunRecord(runDirectory, options.uuid, 'install', { leader: identify(child.pid) }),
      () => undefined,
    );
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    options.signal?.addEventListener('abort', killGroup, { once: true });
    const streamsClosed = Promise.all([
      forwardLines(child.stdout, options.onOutput),
      forwardLines(child.stderr, options.onOutput),
    ]);
    return new Promise((resolve, reject) => {
      child.once('error', (error) => {
        options.signal?.removeEventListener('abort', killGroup);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        options.signal?.removeEventListener('abort', killGroup);
        // Background jobs the script left behind would hold the pipes open.
        killGroup();
        void recorded.then(() => removeRunRecord(runDirectory, options.uuid, 'install'));
        void this.#sandbox.finished(options.uuid);
        streamsClosed.then(() => resolve({ exitCode: code ?? (signal ? 128 + signalNumber(signal) : 1) }));
      });
    });
  }
}

/** The shell's convention for a process ended by a signal: 128 + its number. */
const signalNumber = (signal: NodeJS.Signals) => constants.signals[signal] ?? 0;
