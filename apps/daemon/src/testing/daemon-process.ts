import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { PANEL_TOKEN, PANEL_TOKEN_ID } from './panel-stand-in';

const AERIE = fileURLToPath(new URL('../../../../bin/aerie.mjs', import.meta.url));

/** A real `aerie daemon` child process, as `aerie up` starts it. */
export interface DaemonProcess {
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Resolves with the daemon's URL once it listens. */
  listening(): Promise<string>;
}

/**
 * The environment of a test daemon talking to a panel stand-in at `panelUrl`: any free port, the stand-in's node
 * token, quiet logs; `extra` on top.
 */
export const testDaemonEnv = (
  panelUrl: string,
  dataDirectory: string,
  extra: Record<string, string> = {},
): Record<string, string> => ({
  DAEMON_PORT: '0',
  DAEMON_TOKEN_ID: PANEL_TOKEN_ID,
  DAEMON_TOKEN: PANEL_TOKEN,
  PANEL_URL: panelUrl,
  DAEMON_DATA_DIR: dataDirectory,
  LOG_LEVEL: 'silent',
  ...extra,
});

/** Starts `aerie daemon` with `env` (and PATH); its output is collected for assertions. */
export function startDaemonProcess(env: Record<string, string>): DaemonProcess {
  const child = spawn(process.execPath, [AERIE, 'daemon'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    output: () => output,
    exited,
    listening: async () => {
      await expect
        .poll(() => output, { timeout: 30_000 })
        .toMatch(/Aerie daemon listening on http:\/\/127\.0\.0\.1:\d+/);
      return /listening on (http:\/\/\S+)/.exec(output)?.[1] as string;
    },
  };
}

/**
 * Host pids of the processes running `script`: a sandboxed game knows only its pid inside the sandbox, so the
 * test finds it from the host's side, by its command line.
 */
export async function processesRunning(script: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const running: number[] = [];
  for (const pid of pids) {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.split('\0').some((argument) => argument.endsWith(script))) running.push(Number(pid));
  }
  return running;
}

/** A game for restart tests: says `ready`, counts every 100 ms (`tick N`), answers each command, leaves on `stop`. */
export const COUNTING_GAME = `let n = 0;
console.log('ready');
setInterval(() => console.log('tick ' + ++n), 100);
process.stdin.on('data', (data) => {
  for (const command of String(data).split('\\n').filter(Boolean)) {
    if (command === 'stop') process.exit(0);
    console.log('heard ' + command);
  }
});`;
