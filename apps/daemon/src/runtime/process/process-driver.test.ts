import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { InstallOptions } from '@aerie/daemon/runtime/runtime';
import { isAlive, serverDirectory, TEST_LIMITS } from '@aerie/daemon/testing/server-fixtures';
import { testRunDirectory } from '@aerie/daemon/testing/test-run-directory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessDriver } from './process-driver';
import { ProcessSandbox } from './sandbox/process-sandbox';

let directory: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ directory, cleanup } = await serverDirectory());
});
afterEach(() => cleanup());

function install(script: string, extra: Partial<InstallOptions> = {}) {
  const lines: string[] = [];
  const driver = new ProcessDriver({
    tmpDirectory: path.join(directory, '.tmp'),
    runDirectory: testRunDirectory(),
    sandbox: ProcessSandbox.unsafe(),
  });
  const result = driver.install({
    uuid: 'a1b2c3d4-0000-4000-8000-000000000001',
    directory,
    script,
    image: 'ghcr.io/example/installer',
    entrypoint: 'bash',
    environment: { SERVER_MEMORY: '512', MOTD: 'hi there' },
    limits: TEST_LIMITS,
    onOutput: (line) => lines.push(line),
    ...extra,
  });
  return { lines, result };
}

describe('ProcessDriver.install', () => {
  it('runs the script in bash with /mnt/server mapped to the server directory and the server environment', async () => {
    const { lines, result } = install(
      'set -e\nmkdir -p /mnt/server/sub\ncd /mnt/server\necho "in $(pwd) mem=$SERVER_MEMORY motd=$MOTD"\necho content > /mnt/server/sub/file.txt\necho oops >&2\n[[ -n "$BASH_VERSION" ]] && echo bash\n',
    );
    expect(await result).toEqual({ exitCode: 0 });
    expect(lines).toEqual([`in ${directory} mem=512 motd=hi there`, 'oops', 'bash']);
    expect(await readFile(path.join(directory, 'sub/file.txt'), 'utf8')).toBe('content\n');
    // The script file is gone once the install is over.
    await expect(stat(path.join(directory, '.tmp/a1b2c3d4-0000-4000-8000-000000000001'))).rejects.toThrow();
  });

  it('answers the exit code of a failing script', async () => {
    const { lines, result } = install('echo before\nexit 3\necho after\n');
    expect(await result).toEqual({ exitCode: 3 });
    expect(lines).toEqual(['before']);
  });

  it('ends the script and what it started when aborted', async () => {
    const controller = new AbortController();
    const { lines, result } = install('sleep 30 &\necho "child $!"\nwait\n', { signal: controller.signal });
    await expect.poll(() => lines.length, { timeout: 3000 }).toBe(1);
    const child = Number(lines[0]?.split(' ')[1]);
    controller.abort();
    expect((await result).exitCode).toBe(137);
    await expect.poll(() => isAlive(child), { timeout: 2000 }).toBe(false);
  });
});
