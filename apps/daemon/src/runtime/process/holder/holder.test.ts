import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ProcessRuntime } from '@aerie/daemon/runtime/process/process-runtime';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import type { RuntimeExit } from '@aerie/daemon/runtime/runtime';
import {
  isAlive,
  nodeStartup,
  serverDirectory,
  startOptions,
  waitForEvent,
  writeScript,
} from '@aerie/daemon/testing/server-fixtures';
import { testRunDirectory } from '@aerie/daemon/testing/test-run-directory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const UUID = '0a1d0a1d-0000-4000-8000-00000000a1d0';
let directory: string;
let cleanup: () => Promise<void>;
const started: ProcessRuntime[] = [];

beforeEach(async () => {
  ({ directory, cleanup } = await serverDirectory());
});
afterEach(async () => {
  for (const runtime of started.splice(0)) runtime.kill();
  await cleanup();
});

/** A quiet game (a game that prints dies of SIGPIPE once its holder is gone) in a run directory of its own. */
async function quietGame() {
  const runDirectory = testRunDirectory();
  const runtime = new ProcessRuntime({ sandbox: ProcessSandbox.unsafe(), runDirectory });
  started.push(runtime);
  const script = await writeScript(
    directory,
    'quiet.mjs',
    "console.log('pid ' + process.pid); setInterval(() => {}, 1000);",
  );
  const first = waitForEvent<[string]>(runtime, 'output');
  await runtime.start(startOptions({ uuid: UUID, directory, startup: nodeStartup(script) }));
  const pid = Number((await first)[0].split(' ')[1]);
  const record = JSON.parse(await readFile(path.join(runDirectory, `${UUID}.json`), 'utf8')) as {
    holder: { pid: number };
  };
  return { runtime, runDirectory, pid, holder: record.holder.pid };
}

describe('the holder of a game', () => {
  it('dying under a running daemon: its game is ended and the runtime reports the exit', async () => {
    const { runtime, pid, holder } = await quietGame();
    const exited = waitForEvent<[RuntimeExit]>(runtime, 'exit');
    process.kill(holder, 'SIGKILL');
    expect((await exited)[0]).toEqual({ code: null, signal: 'SIGKILL' });
    await expect.poll(() => isAlive(pid), { timeout: 2000 }).toBe(false);
    expect(runtime.running).toBe(false);
  });

  it('ends its game once its run directory is gone (the server was deleted, or the test is over)', async () => {
    const { runDirectory, pid, holder } = await quietGame();
    await rm(runDirectory, { recursive: true, force: true });
    await expect.poll(() => isAlive(pid), { timeout: 8000 }).toBe(false);
    await expect.poll(() => isAlive(holder), { timeout: 2000 }).toBe(false);
  }, 15_000);

  it('refuses a second game for a server whose holder still answers', async () => {
    const { runDirectory } = await quietGame();
    const second = new ProcessRuntime({ sandbox: ProcessSandbox.unsafe(), runDirectory });
    await expect(second.start(startOptions({ uuid: UUID, directory, startup: 'sleep 30' }))).rejects.toThrow(
      'Another holder already runs this server.',
    );
  });
});
