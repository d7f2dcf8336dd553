import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeExit } from '@aerie/daemon/runtime/runtime';
import { wingsEnvironment } from '@aerie/daemon/runtime/wings-environment';
import {
  isAlive,
  nodeStartup,
  serverDirectory,
  startOptions,
  TEST_LIMITS,
  waitForEvent,
  writeScript,
} from '@aerie/daemon/testing/server-fixtures';
import { testProcessRuntime, testRunDirectory } from '@aerie/daemon/testing/test-run-directory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessDriver } from './process-driver';
import type { ProcessRuntime } from './process-runtime';
import { ProcessSandbox } from './sandbox/process-sandbox';

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

/** Starts a runtime and collects its output lines and exit. */
async function run(startup: string, environment: Record<string, string> = {}) {
  const runtime = testProcessRuntime();
  started.push(runtime);
  const lines: string[] = [];
  runtime.on('output', (line) => lines.push(line));
  const exited = waitForEvent<[RuntimeExit]>(runtime, 'exit').then(([exit]) => exit);
  await runtime.start(startOptions({ directory, startup, environment }));
  return { runtime, lines, exited };
}

describe('ProcessRuntime', () => {
  it('runs the command in the server directory with the Wings environment and {{VAR}} resolved', async () => {
    const environment = wingsEnvironment({
      invocation: 'echo {{SERVER_MEMORY}}',
      memoryMb: 512,
      ip: '127.0.0.1',
      port: 25565,
      timezone: 'Europe/Paris',
      variables: { motd: 'hello world', P_SERVER_UUID: 'abc-123', SERVER_PORT: '1', MAX_PLAYERS: 20 },
    });
    const { lines, exited } = await run(
      'pwd; echo "mem={{SERVER_MEMORY}} port={{ SERVER_PORT }} motd={{MOTD}} uuid={{env.P_SERVER_UUID}}"; echo "tz=$TZ startup=$STARTUP home=$HOME missing=[{{NOPE}}] players=$MAX_PLAYERS"',
      environment,
    );
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(lines).toEqual([
      directory,
      'mem=512 port=25565 motd=hello world uuid=abc-123',
      `tz=Europe/Paris startup=echo {{SERVER_MEMORY}} home=${directory} missing=[] players=20`,
    ]);
  });

  it('keeps a variable value as data, never shell syntax', async () => {
    const { lines, exited } = await run('echo "{{MOTD}}"; echo {{MOTD}}', {
      MOTD: 'hi; echo INJECTED $(echo too)',
    });
    await exited;
    expect(lines).toEqual(['hi; echo INJECTED $(echo too)', 'hi; echo INJECTED $(echo too)']);
  });

  it('never splits a value into words nor globs it, wherever the placeholder stands', async () => {
    await writeFile(path.join(directory, 'secret.txt'), 'x');
    const { lines, exited } = await run(
      `printf '[%s]' {{V}}; echo; printf '[%s]' "-{{V}}-"; echo; printf '[%s]' '<{{V}}>'; echo; printf '[%s]' {{W}}; echo`,
      { V: '*', W: 'two  words' },
    );
    await exited;
    expect(lines).toEqual(['[*]', '[-*-]', '[<*>]', '[two  words]']);
  });

  it('does not pass the daemon its own environment', async () => {
    process.env.AERIE_TEST_SECRET = 'do-not-leak';
    try {
      const { lines, exited } = await run('echo "secret=[$AERIE_TEST_SECRET]"');
      await exited;
      expect(lines).toEqual(['secret=[]']);
    } finally {
      delete process.env.AERIE_TEST_SECRET;
    }
  });

  it('splits partial lines and several lines in one chunk, from stdout and stderr', async () => {
    const script = await writeScript(
      directory,
      'chunks.mjs',
      `const pause = () => new Promise((r) => setTimeout(r, 50));
      process.stdout.write('hel'); await pause();
      process.stdout.write('lo\\nwor'); await pause();
      process.stdout.write('ld\\none\\ntwo\\r\\nthree\\n'); await pause();
      process.stderr.write('an err'); await pause();
      process.stderr.write('or\\n'); await pause();
      process.stdout.write('no newline at the end');`,
    );
    const { lines, exited } = await run(nodeStartup(script));
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(lines).toEqual(['hello', 'world', 'one', 'two', 'three', 'an error', 'no newline at the end']);
  });

  it('writes console commands to stdin, one per line', async () => {
    const script = await writeScript(
      directory,
      'echo.mjs',
      `import { createInterface } from 'node:readline';
      console.log('ready');
      createInterface({ input: process.stdin }).on('line', (l) => { console.log('got ' + l); if (l === 'quit') process.exit(3); });`,
    );
    const { runtime, lines, exited } = await run(nodeStartup(script));
    await waitForEvent<[string]>(runtime, 'output', (line) => line === 'ready');
    runtime.write('say hi');
    runtime.write('quit');
    expect(await exited).toEqual({ code: 3, signal: null });
    expect(lines).toEqual(['ready', 'got say hi', 'got quit']);
    runtime.write('after the end is ignored');
  });

  it('sends signals to the whole process group', async () => {
    const script = await writeScript(
      directory,
      'trap.mjs',
      `process.on('SIGINT', () => { console.log('child got SIGINT'); process.exit(0); });
      console.log('ready'); setInterval(() => {}, 1000);`,
    );
    // The shell traps the signal too: both it and the node process it started receive it.
    const { runtime, lines, exited } = await run(
      `trap 'echo shell got SIGINT' INT; ${nodeStartup(script)}; wait`,
    );
    await waitForEvent<[string]>(runtime, 'output', (line) => line === 'ready');
    runtime.signal('SIGINT');
    expect((await exited).code).toBe(0);
    expect(lines).toContain('child got SIGINT');
    expect(lines).toContain('shell got SIGINT');
  });

  it('kill ends the process and every child, leaving none behind', async () => {
    const { runtime, lines, exited } = await run(
      'sleep 300 & echo "child $!"; sh -c "sleep 300 & echo grandchild \\$!; wait" & wait',
    );
    await waitForEvent<[string]>(runtime, 'output', (line) => line.startsWith('grandchild '));
    const pids = lines.map((line) => Number(line.split(' ')[1]));
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    runtime.kill();
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(runtime.running).toBe(false);
    await expect.poll(() => pids.filter(isAlive), { timeout: 2000 }).toEqual([]);
  });

  it('kills what the main process left behind when it exits, as a container would', async () => {
    const { runtime, lines, exited } = await run('sleep 300 & echo "orphan $!"; exit 4');
    expect(await exited).toEqual({ code: 4, signal: null });
    const pid = Number(lines[0]?.split(' ')[1]);
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => isAlive(pid), { timeout: 2000 }).toBe(false);
    expect(runtime.running).toBe(false);
  });

  it('reports the memory and CPU of the whole process group, and zeros once it has ended', async () => {
    // The shell starts a busy child that holds ~40 MB: it is counted although it is not the group leader.
    const script = await writeScript(
      directory,
      'busy.mjs',
      'const held = Buffer.alloc(40e6, 1); console.log("busy", held.length); for (;;) {}',
    );
    const runtime = testProcessRuntime();
    started.push(runtime);
    const busy = waitForEvent(runtime, 'output', (line: string) => line.startsWith('busy'));
    await runtime.start(
      startOptions({ directory, startup: nodeStartup(script), limits: { ...TEST_LIMITS, memoryMb: 512 } }),
    );
    await busy;
    await runtime.usage();
    await new Promise((resolve) => setTimeout(resolve, 700));
    const usage = await runtime.usage();
    expect(usage.memoryBytes).toBeGreaterThan(40e6);
    expect(usage.memoryLimitBytes).toBe(512_000_000);
    // A busy loop: most of one core, less when other test files share the machine's cores.
    expect(usage.cpuAbsolute).toBeGreaterThan(10);
    expect(usage.cpuAbsolute).toBeLessThan(110);
    expect(Math.round(usage.cpuAbsolute * 1000)).toBe(usage.cpuAbsolute * 1000);
    expect(usage).toMatchObject({ rxBytes: 0, txBytes: 0 });
    const exited = waitForEvent(runtime, 'exit');
    runtime.kill();
    await exited;
    expect(await runtime.usage()).toEqual({
      memoryBytes: 0,
      memoryLimitBytes: 0,
      cpuAbsolute: 0,
      rxBytes: 0,
      txBytes: 0,
    });
  });

  it('cuts console lines at 64 KiB and keeps the lines after them', async () => {
    const { lines, exited } = await run(
      `"${process.execPath}" -e 'process.stdout.write("x".repeat(200000) + "\\nnext\\r\\n" + "y".repeat(65536) + "\\nlast")'`,
    );
    await exited;
    expect(lines.map((line) => line.length)).toEqual([65536, 4, 65536, 4]);
    expect(lines[0]).toBe('x'.repeat(65536));
    expect(lines.slice(1)).toEqual(['next', 'y'.repeat(65536), 'last']);
  });

  it('keeps the game running when the daemon process dies, and a new daemon adopts it with what it missed', async () => {
    const runtimeModule = fileURLToPath(new URL('./process-runtime.ts', import.meta.url));
    const sandboxModule = fileURLToPath(new URL('./sandbox/process-sandbox.ts', import.meta.url));
    const runDirectory = testRunDirectory();
    const uuid = '6f0c1f7e-5d0a-4c61-9d7e-2b7c4f1e9a01';
    // The game answers each command, and counts on its own while no daemon listens.
    const game = await writeScript(
      directory,
      'game.mjs',
      `let n = 0; console.log('game ' + process.pid);
setInterval(() => console.log('tick ' + ++n), 100);
process.stdin.on('data', (d) => console.log('heard ' + String(d).trim()));`,
    );
    const daemon = await writeScript(
      directory,
      'daemon.mts',
      `import { ProcessRuntime } from ${JSON.stringify(runtimeModule)};
import { ProcessSandbox } from ${JSON.stringify(sandboxModule)};
const runtime = new ProcessRuntime({ sandbox: ProcessSandbox.unsafe(), runDirectory: ${JSON.stringify(runDirectory)} });
runtime.on('output', (line) => {
  console.log(line);
  if (line.startsWith('game')) setTimeout(() => { throw new Error('daemon bug'); }, 50);
});
await runtime.start({ uuid: ${JSON.stringify(uuid)}, directory: ${JSON.stringify(directory)}, startup: ${JSON.stringify(nodeStartup(game))}, environment: {}, image: '', limits: ${JSON.stringify(TEST_LIMITS)}, allocations: { default: { ip: '127.0.0.1', port: 0 }, mappings: {} } });
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', daemon], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    const pid = Number(/game (\d+)/.exec(output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // Long enough for lines nobody read: the holder keeps them.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isAlive(pid)).toBe(true);

    const driver = new ProcessDriver({ runDirectory, sandbox: ProcessSandbox.unsafe() });
    const adopted = await driver.adopt(uuid);
    expect(adopted).toBeDefined();
    if (!adopted) return;
    started.push(adopted as ProcessRuntime);
    const lines: string[] = [];
    adopted.on('output', (line) => lines.push(line));
    const heard = waitForEvent(adopted, 'output', (line: string) => line === 'heard hello again');
    adopted.follow();
    adopted.write('hello again');
    await heard;
    // From its first line on, with the ticks printed while no daemon was there, in order and none twice.
    expect(lines[0]).toBe(`game ${pid}`);
    const ticks = lines.filter((line) => line.startsWith('tick ')).map((line) => Number(line.slice(5)));
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks).toEqual(ticks.map((_, index) => index + 1));
    expect(adopted.running).toBe(true);
    expect(adopted.startedAt).toBeGreaterThan(Date.now() - 30_000);
    expect((await adopted.usage()).memoryBytes).toBeGreaterThan(0);
    const exited = waitForEvent<[RuntimeExit]>(adopted, 'exit');
    adopted.kill();
    expect((await exited)[0].signal).toBe('SIGKILL');
    await expect.poll(() => isAlive(pid), { timeout: 2000 }).toBe(false);
    // The holder went with it: nothing is left to adopt.
    expect(await driver.adopt(uuid)).toBeUndefined();
  });

  it('refuses to start in a directory that does not exist', async () => {
    const runtime = testProcessRuntime();
    await expect(
      runtime.start(startOptions({ directory: `${directory}/missing`, startup: 'true' })),
    ).rejects.toThrow(`The server directory ${directory}/missing does not exist.`);
    expect(runtime.running).toBe(false);
  });
});
