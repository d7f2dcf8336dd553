import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import type { InstallOptions, RuntimeDriver, ServerRuntime } from '../runtime';
import { forwardLines } from './line-splitter';
import { ProcessRuntime } from './process-runtime';

/** Where an egg's install script expects the server's files (the installer container's mount). */
const INSTALL_MOUNT = '/mnt/server';

/**
 * The embedded driver: servers run as process groups on this machine. An install script runs in `bash` with
 * `/mnt/server` rewritten to the server's directory, since there is no container to mount it into.
 */
export class ProcessDriver implements RuntimeDriver {
  readonly name = 'process';
  readonly #tmpDirectory: string;

  /** @param tmpDirectory where install scripts are written (the daemon's `tmp/`) */
  constructor(options: { tmpDirectory?: string } = {}) {
    this.#tmpDirectory = options.tmpDirectory ?? tmpdir();
  }

  createRuntime(): ServerRuntime {
    return new ProcessRuntime();
  }

  async install(options: InstallOptions): Promise<{ exitCode: number }> {
    const scriptDirectory = path.join(this.#tmpDirectory, options.uuid);
    await mkdir(scriptDirectory, { recursive: true, mode: 0o700 });
    const scriptFile = path.join(scriptDirectory, 'install.sh');
    await writeFile(scriptFile, options.script.replaceAll(INSTALL_MOUNT, options.directory), { mode: 0o700 });
    try {
      return await this.#runScript(scriptFile, options);
    } finally {
      await rm(scriptDirectory, { recursive: true, force: true });
    }
  }

  async destroy(_uuid: string): Promise<void> {
    // Nothing outside the server's directory belongs to a process server.
  }

  #runScript(scriptFile: string, options: InstallOptions): Promise<{ exitCode: number }> {
    if (options.signal?.aborted) return Promise.resolve({ exitCode: 1 });
    // stderr joins stdout in one pipe, as on the installer container's terminal, so lines keep their order.
    const child = spawn('bash', ['-c', 'exec bash "$0" 2>&1', scriptFile], {
      cwd: options.directory,
      env: {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        HOME: options.directory,
        ...options.environment,
      },
      // Its own process group, so an abort ends whatever the script started too.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
        streamsClosed.then(() => resolve({ exitCode: code ?? (signal ? 128 + signalNumber(signal) : 1) }));
      });
    });
  }
}

/** The shell's convention for a process ended by a signal: 128 + its number. */
const signalNumber = (signal: NodeJS.Signals) => constants.signals[signal] ?? 0;
