import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@aerie/panel/config/load-config';
import { appKeyFile, decodeAppKey } from '@aerie/panel/crypto/app-key';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';

export const aerieBin = join(repoRoot, 'bin/aerie.mjs');

/**
 * Starts a real `aerie up` with `env` on top of the test's environment. `ready` resolves with the panel URL once
 * both the panel and its daemon listen; `stop` sends Ctrl-C (SIGINT) and resolves with the exit code; `pid` is
 * the `aerie up` process (its daemon is a child of it). `detached`: it leads a process group of its own, as in a
 * terminal or under a service manager, so the test can signal the whole group. `command: 'start'` runs `aerie start`
 * (npm start's), which keeps an `aerie up` child running.
 */
export function startAerieUp(
  env: Record<string, string>,
  options: { detached?: boolean; command?: 'up' | 'start' } = {},
) {
  const child: ChildProcess = spawn(process.execPath, [aerieBin, options.command ?? 'up'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = /Aerie is running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url && output.includes('Aerie daemon listening on')) resolve(url);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`aerie up exited with ${code}:\n${output}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill('SIGINT');
    });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { ready, stop, exited, output: () => output, pid: child.pid };
}

/** The local node's plain daemon token, opened with the app key `aerie up` keeps in DATA_DIR. */
export async function localDaemonToken(db: Db, dataDir: string): Promise<string> {
  const node = await db.selectFrom('nodes').select('daemon_token').orderBy('id').executeTakeFirstOrThrow();
  const secretBox = new SecretBox(decodeAppKey(readFileSync(appKeyFile(dataDir), 'utf8'), 'app.key'));
  return secretBox.open(node.daemon_token);
}
