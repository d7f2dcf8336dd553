/**
 * A test's unprivileged daemon: bundled by user-mode-network.test.ts and run under another uid, it detects the
 * process sandbox as a non-root daemon does and starts or kills games on the test's word. stdin takes one JSON
 * command a line (`start`, `kill`); stdout says what happened, one JSON event a line. Not part of the daemon.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { endAbandonedRun, ProcessRuntime } from '@aerie/daemon/runtime/process/process-runtime';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import type { RuntimeAllocations, RuntimeExit } from '@aerie/daemon/runtime/runtime';
import { parseAllowedDestinations } from './game-network-plan';

export type DriverCommand =
  | {
      op: 'start';
      name: string;
      allocations: RuntimeAllocations;
      environment: Record<string, string>;
      /** The game's source, written to game.mjs in its volume. */
      game: string;
    }
  | { op: 'kill'; name: string }
  /** What a restarted daemon does for a run whose holder is gone: end what it left. */
  | { op: 'abandon'; uuid: string };

export type DriverEvent =
  | { op: 'detected'; describe: string; isolates: boolean }
  | { op: 'started'; name: string; uuid: string }
  | { op: 'failed'; name: string; error: string; message: string }
  | { op: 'line'; name: string; line: string }
  | { op: 'exited'; name: string }
  | { op: 'abandoned'; uuid: string };

/** argv: the data directory, then `bubblewrap` to go without it or `-`, then DAEMON_GAME_NETWORK_ALLOW's text. */
const [dataDirectory = '', without, allow = ''] = process.argv.slice(2);
const say = (event: DriverEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);

const sandbox = await ProcessSandbox.detect({
  dataDirectory,
  ...(without === 'bubblewrap' ? { without: 'bubblewrap' as const } : {}),
  allowedDestinations: parseAllowedDestinations(allow),
});
say({ op: 'detected', describe: sandbox.describe(), isolates: sandbox.isolatesNetwork });

const games = new Map<string, { runtime: ProcessRuntime; released: Promise<void> }>();

async function start(command: Extract<DriverCommand, { op: 'start' }>): Promise<void> {
  const uuid = randomUUID();
  const directory = path.join(dataDirectory, 'volumes', uuid);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await writeFile(path.join(directory, 'game.mjs'), command.game);
  const runtime = new ProcessRuntime({ sandbox, runDirectory: path.join(dataDirectory, 'run') });
  runtime.on('output', (line) => say({ op: 'line', name: command.name, line }));
  const exited = new Promise<RuntimeExit>((resolve) => runtime.once('exit', resolve));
  try {
    await runtime.start({
      uuid,
      directory,
      startup: 'node game.mjs',
      image: '~process',
      limits: { memoryMb: 0, swapMb: 0, cpuPercent: 0, threads: null, ioWeight: 0, oomDisabled: false },
      allocations: command.allocations,
      environment: command.environment,
    } as Parameters<ProcessRuntime['start']>[0]);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    say({ op: 'failed', name: command.name, error: failure.name, message: failure.message });
    return;
  }
  // The run's network is released once its exit is handled; waiting for it here lets the test see it gone.
  const released = exited.then(async () => {
    await sandbox.finished(uuid);
    say({ op: 'exited', name: command.name });
  });
  games.set(command.name, { runtime, released });
  say({ op: 'started', name: command.name, uuid });
}

const lines = createInterface({ input: process.stdin });
for await (const text of lines) {
  const command = JSON.parse(text) as DriverCommand;
  if (command.op === 'start') await start(command);
  else if (command.op === 'kill') games.get(command.name)?.runtime.kill();
  else {
    await endAbandonedRun({ sandbox, runDirectory: path.join(dataDirectory, 'run') }, command.uuid);
    // The network's release runs in the background there; this waits its turn behind it.
    await sandbox.finished(command.uuid);
    say({ op: 'abandoned', uuid: command.uuid });
  }
}
// stdin closed: the test is over, and so are its games and their networks.
for (const game of games.values()) game.runtime.kill();
await Promise.all([...games.values()].map((game) => game.released));
process.exit(0);
