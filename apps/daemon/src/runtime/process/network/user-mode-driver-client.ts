/**
 * Runs the daemon's process sandbox as an unprivileged daemon would, from a root test or benchmark: the driver
 * (user-mode-driver.ts, bundled with the holder into one script any uid can read) under `setpriv` as `uid`, told
 * what to start over stdin. Not part of the daemon.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chown, mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { holderProgram } from '@aerie/daemon/runtime/process/holder/holder-program';
import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';
import type { DriverCommand, DriverEvent } from './user-mode-driver';

/** An unprivileged daemon's uid for tests and benchmarks: any uid without a home works. */
export const UNPRIVILEGED_UID = 47_110;

/** A data directory the unprivileged uid owns, with the driver script in it. */
export async function prepareUnprivilegedDaemon(uid = UNPRIVILEGED_UID): Promise<{
  dataDirectory: string;
  script: string;
}> {
  const dataDirectory = await mkdtemp('/tmp/aerie-um-');
  await chown(dataDirectory, uid, uid);
  const { build } = await import('esbuild');
  const here = path.dirname(fileURLToPath(import.meta.url));
  // The holder as the daemon runs it (bundled from holder-main.ts), carried inside the driver's own bundle.
  const holder = await holderProgram();
  const bundled = await build({
    entryPoints: [path.join(here, 'user-mode-driver.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    define: { AERIE_HOLDER_PROGRAM: JSON.stringify(holder) },
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  const script = path.join(dataDirectory, 'driver.mjs');
  await writeFile(script, bundled.outputFiles[0]?.text ?? '', { mode: 0o644 });
  return { dataDirectory, script };
}

/** The unprivileged daemon: commands in, events out. */
export class UnprivilegedDaemon {
  readonly events: DriverEvent[] = [];
  readonly ended: Promise<void>;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiters: (() => void)[] = [];

  constructor(options: {
    script: string;
    dataDirectory: string;
    kind?: 'bubblewrap' | 'unshare';
    uid?: number;
    /** DAEMON_GAME_NETWORK_ALLOW's text. */
    allow?: string;
  }) {
    const uid = options.uid ?? UNPRIVILEGED_UID;
    this.#child = spawn(
      'setpriv',
      [
        `--reuid=${uid}`,
        `--regid=${uid}`,
        '--clear-groups',
        '--',
        process.execPath,
        options.script,
        options.dataDirectory,
        options.kind === 'unshare' ? 'bubblewrap' : '-',
        options.allow ?? '',
      ],
      { env: { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', HOME: options.dataDirectory } },
    );
    let stderr = '';
    this.#child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      this.events.push(JSON.parse(line) as DriverEvent);
      this.#wake();
    });
    this.ended = new Promise((resolve) =>
      this.#child.once('close', () => {
        if (stderr.trim()) this.events.push({ op: 'line', name: 'driver-stderr', line: stderr.trim() });
        resolve();
        this.#wake();
      }),
    );
  }

  send(command: DriverCommand): void {
    this.#child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** The first event that satisfies `accept`, once the driver has said it. */
  async until(accept: (event: DriverEvent) => boolean): Promise<DriverEvent> {
    for (;;) {
      const found = this.events.find(accept);
      if (found) return found;
      if (this.#child.exitCode !== null || this.#child.signalCode !== null)
        throw new Error(`the unprivileged daemon ended first: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** What the sandbox said of itself at start. */
  async detected(): Promise<{ describe: string; isolates: boolean }> {
    const event = await this.until((candidate) => candidate.op === 'detected');
    if (event.op !== 'detected') throw new Error('unreachable');
    return { describe: event.describe, isolates: event.isolates };
  }

  lines(name: string): string[] {
    return this.events.flatMap((event) => (event.op === 'line' && event.name === name ? [event.line] : []));
  }

  /** Starts `game` (a Node script's source); its uuid once it printed a line starting `ready`, or the start's failure. */
  async start(
    name: string,
    game: string,
    allocations: RuntimeAllocations,
    environment: Record<string, string>,
  ): Promise<{ uuid: string } | { error: string; message: string }> {
    this.send({ op: 'start', name, allocations, game, environment });
    const outcome = await this.until(
      (event) => (event.op === 'started' || event.op === 'failed') && event.name === name,
    );
    if (outcome.op === 'failed') return { error: outcome.error, message: outcome.message };
    if (outcome.op !== 'started') throw new Error('unreachable');
    await this.until(
      (event) =>
        (event.op === 'line' && event.name === name && event.line.startsWith('ready')) ||
        (event.op === 'exited' && event.name === name),
    );
    return { uuid: outcome.uuid };
  }

  /** Ends every game (and its network), then the driver. */
  async stop(): Promise<void> {
    this.#child.stdin.end();
    await this.ended;
  }

  /** A daemon crash: its games and their networks stay. */
  crash(): void {
    this.#child.kill('SIGKILL');
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
