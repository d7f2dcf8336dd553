import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProcessDriver } from '@aerie/daemon/runtime/process/process-driver';
import type { RuntimeExit, RuntimeLimits } from '@aerie/daemon/runtime/runtime';
import type { CustomMount } from '@aerie/daemon/server/custom-mounts';
import { startOptions, TEST_LIMITS, waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { testProcessRuntime } from '@aerie/daemon/testing/test-run-directory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessSandbox, SANDBOX_UNAVAILABLE_MESSAGE } from './process-sandbox';
import { SERVER_UID_BASE } from './server-uids';

/**
 * A customer who can upload files and press Start controls the startup's code: these tests run such code in the
 * sandbox and look from inside at what the daemon's host holds. CI installs bubblewrap and runs as root (per-server
 * uids and control groups); a developer's machine without bubblewrap skips them.
 */
const SECRET = `aerie-secret-${randomUUID()}`;
let dataDirectory: string;
let sandbox: ProcessSandbox;
const root = process.getuid?.() === 0;

beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-sandbox-test-'));
  // What an attacker is after: the panel's key and database, the daemon's token, other servers' files.
  await writeFile(path.join(dataDirectory, 'app.key'), SECRET, { mode: 0o600 });
  await writeFile(path.join(dataDirectory, 'aerie.sqlite'), SECRET, { mode: 0o644 });
  await mkdir(path.join(dataDirectory, 'volumes', 'other'), { recursive: true });
  await writeFile(path.join(dataDirectory, 'volumes', 'other', 'secret.txt'), SECRET, { mode: 0o644 });
  process.env.AERIE_TEST_DAEMON_TOKEN = SECRET;
});
afterAll(async () => {
  delete process.env.AERIE_TEST_DAEMON_TOKEN;
  await rm(dataDirectory, { recursive: true, force: true });
});

async function volume(name: string = randomUUID()): Promise<{ uuid: string; directory: string }> {
  const directory = path.join(dataDirectory, 'volumes', name);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  return { uuid: name, directory };
}

/** Runs a startup in a fresh sandboxed server and returns its console and exit. */
async function runGame(
  startup: string,
  options: { limits?: Partial<RuntimeLimits>; uuid?: string; mounts?: CustomMount[] } = {},
) {
  const { uuid, directory } = await volume(options.uuid);
  const runtime = testProcessRuntime(sandbox);
  const lines: string[] = [];
  runtime.on('output', (line) => lines.push(line));
  // A fork bomb's 600 processes take seconds to start and end on a loaded machine.
  const exited = waitForEvent<[RuntimeExit]>(runtime, 'exit', () => true, 15_000).then(([exit]) => exit);
  await runtime.start({
    ...startOptions({ directory, startup }),
    uuid,
    limits: { ...TEST_LIMITS, ...options.limits },
    mounts: options.mounts,
  });
  return { runtime, lines, exited, directory, uuid };
}

const available = process.env.CI === 'true' || existsSync('/usr/bin/bwrap');

// The same attacks against both ways of making the sandbox: bubblewrap, and unshare where bubblewrap is missing.
describe.runIf(available).each(['bubblewrap', 'unshare'] as const)(
  'the process runtime sandbox (%s)',
  (kind) => {
    beforeAll(async () => {
      sandbox = await ProcessSandbox.detect({
        dataDirectory,
        ...(kind === 'unshare' ? { without: 'bubblewrap' as const } : {}),
      });
    });

    it('is made here, with a uid per server and control groups when the daemon is root', () => {
      expect(sandbox.kind).toBe(kind);
      expect(sandbox.describe()).toContain(root ? 'a uid per server' : 'user namespace');
    });

    it('shows the game its volume as /home/container and nothing of the daemon, the panel or other servers', async () => {
      const probe = [
        'echo "home=$(pwd) uid=$(id -u)"',
        `cat ${dataDirectory}/app.key 2>/dev/null || echo "app.key: refused"`,
        `cat ${dataDirectory}/aerie.sqlite 2>/dev/null || echo "database: refused"`,
        `cat ${dataDirectory}/volumes/other/secret.txt 2>/dev/null || echo "other server: refused"`,
        // Every process the game can see, and their environments: none holds the daemon's secrets.
        `grep -l ${SECRET} /proc/*/environ 2>/dev/null || echo "environ: clean"`,
        'echo "processes=$(ls -d /proc/[0-9]* | wc -l)"',
        `touch ${dataDirectory}/pwned 2>/dev/null || echo "data dir write: refused"`,
        'touch /usr/pwned 2>/dev/null || echo "system write: refused"',
        'touch /etc/pwned 2>/dev/null || echo "etc write: refused"',
        'echo ok > /tmp/private && echo "tmp: private"',
        'echo mine > /home/container/mine.txt && echo "volume: writable"',
      ].join('\n');
      const { lines, exited, directory } = await runGame(probe);
      expect((await exited).code).toBe(0);
      const output = lines.join('\n');
      expect(output).not.toContain(SECRET);
      expect(lines).toContain('app.key: refused');
      expect(lines).toContain('database: refused');
      expect(lines).toContain('other server: refused');
      expect(lines).toContain('environ: clean');
      expect(lines).toContain('data dir write: refused');
      expect(lines).toContain('system write: refused');
      expect(lines).toContain('etc write: refused');
      expect(lines).toContain('volume: writable');
      expect(lines[0]).toMatch(/^home=\/home\/container uid=\d+$/);
      const uid = Number(lines[0]?.split('uid=')[1]);
      expect(uid).not.toBe(0);
      // A handful of sandbox processes, not the host's.
      expect(Number(lines.find((line) => line.startsWith('processes='))?.slice(10))).toBeLessThan(10);
      expect(existsSync(path.join(dataDirectory, 'pwned'))).toBe(false);
      expect(existsSync('/tmp/private')).toBe(false);
      expect(await readFile(path.join(directory, 'mine.txt'), 'utf8')).toBe('mine\n');
      if (root) {
        expect(uid).toBeGreaterThanOrEqual(SERVER_UID_BASE);
        expect((await stat(path.join(directory, 'mine.txt'))).uid).toBe(uid);
      }
    });

    it('shows a custom mount at its target: a read-only one cannot be written, a writable one can', async () => {
      const shared = await mkdtemp(path.join(tmpdir(), 'aerie-mount-'));
      const maps = path.join(shared, 'maps');
      const cache = path.join(shared, 'cache');
      await mkdir(maps);
      await mkdir(cache);
      await writeFile(path.join(maps, 'world.txt'), 'a shared map\n', { mode: 0o644 });
      // The game's uid (root daemon) must reach them as any other user would.
      for (const folder of [shared, maps]) await chmod(folder, 0o755);
      await chmod(cache, 0o777);
      const probe = [
        'cat /mnt/maps/world.txt',
        '(echo x > /mnt/maps/world.txt) 2>/dev/null && echo "ro: written" || echo "ro: refused"',
        'touch /mnt/maps/new 2>/dev/null && echo "ro new: written" || echo "ro new: refused"',
        'echo cached > /srv/cache/item && echo "rw: written"',
      ].join('\n');
      try {
        const { lines, exited } = await runGame(probe, {
          mounts: [
            { source: maps, target: '/mnt/maps', readOnly: true },
            { source: cache, target: '/srv/cache', readOnly: false },
          ],
        });
        expect((await exited).code).toBe(0);
        expect(lines).toEqual(['a shared map', 'ro: refused', 'ro new: refused', 'rw: written']);
        expect(await readFile(path.join(maps, 'world.txt'), 'utf8')).toBe('a shared map\n');
        expect(existsSync(path.join(maps, 'new'))).toBe(false);
        expect(await readFile(path.join(cache, 'item'), 'utf8')).toBe('cached\n');
      } finally {
        await rm(shared, { recursive: true, force: true });
      }
    });

    it.runIf(root)('gives two servers two uids, so neither can touch the other', async () => {
      const first = await runGame('id -u');
      const second = await runGame('id -u');
      await Promise.all([first.exited, second.exited]);
      expect(first.lines[0]).not.toBe(second.lines[0]);
    });

    it('lets the game write only its volume and capped memory: not /, not /dev, at most 64 MB of /dev/shm', async () => {
      const probe = [
        'dd if=/dev/zero of=/filler bs=1M count=20 2>/dev/null && echo "root: written" || echo "root: refused"',
        'dd if=/dev/zero of=/dev/filler bs=1M count=20 2>/dev/null && echo "dev: written" || echo "dev: refused"',
        'mkdir /pinned 2>/dev/null && echo "root dir: made" || echo "root dir: refused"',
        'dd if=/dev/zero of=/dev/shm/filler bs=1M count=100 2>/dev/null; echo "shm=$(du -m /dev/shm/filler | cut -f1)"',
        'rm -f /dev/shm/filler',
        'echo quiet > /dev/null && echo "dev null: writable"',
      ].join('\n');
      const { lines, exited } = await runGame(probe);
      expect((await exited).code).toBe(0);
      expect(lines).toContain('root: refused');
      expect(lines).toContain('dev: refused');
      expect(lines).toContain('root dir: refused');
      expect(lines).toContain('dev null: writable');
      expect(Number(lines.find((line) => line.startsWith('shm='))?.slice(4))).toBeLessThanOrEqual(64);
    });

    it('delivers a stop signal to the game, which shuts down gracefully', async () => {
      const { runtime, lines, exited } = await runGame(
        'trap \'echo "graceful shutdown"; exit 0\' TERM\necho ready\nwhile :; do sleep 0.1; done',
      );
      while (!lines.includes('ready')) await new Promise((resolve) => setTimeout(resolve, 20));
      runtime.signal('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(lines).toContain('graceful shutdown');
    });

    it('ends the whole sandbox on kill, children included', async () => {
      const { runtime, lines, exited } = await runGame('sleep 300 & echo "child $!"\nwait');
      while (!lines.some((line) => line.startsWith('child'))) await new Promise((r) => setTimeout(r, 20));
      runtime.kill();
      const exit = await exited;
      expect(exit.code === 0 && exit.signal === null).toBe(false);
    });

    // 600 processes to start and end: seconds on a loaded 2-core machine.
    it('holds a fork bomb at the process limit', { timeout: 20_000 }, async () => {
      // 600 sleepers against a limit of 512: the forks past it are refused, and the server lives on.
      const bomb = `node -e "const {spawn}=require('child_process');let ok=0,no=0;const done=()=>{if(ok+no===600){console.log('started '+ok+' refused '+no);process.exit(0)}};for(let i=0;i<600;i++){const c=spawn('sleep',['30']);c.on('spawn',()=>{ok++;done()});c.on('error',()=>{no++;done()})}"`;
      const { lines, exited } = await runGame(bomb);
      expect((await exited).code).toBe(0);
      const [, started, , refused] = (lines.find((line) => line.startsWith('started')) ?? '').split(' ');
      expect(Number(started)).toBeLessThan(512);
      expect(Number(refused)).toBeGreaterThan(88);
    });

    it.runIf(root)(
      'reports memory as its control group counts it: pages shared by forks once, not once per process',
      {
        timeout: 20_000,
      },
      async () => {
        // 60 MB touched, then three forks: eight processes each showing ~60 MB of RSS, ~60 MB in all.
        const forks = `python3 -c "import os,time; a=bytearray(60*2**20); [os.fork() for _ in range(3)]; print('forked', flush=True) if os.getpid() else 0; time.sleep(30)"`;
        const { runtime, lines } = await runGame(forks, { limits: { memoryMb: 256 } });
        for (let i = 0; i < 200 && !lines.includes('forked'); i++)
          await new Promise((r) => setTimeout(r, 25));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const usage = await runtime.usage();
        runtime.kill();
        expect(usage.memoryBytes).toBeGreaterThan(50 * 1_000_000);
        expect(usage.memoryBytes).toBeLessThan(256 * 1_000_000);
      },
    );

    it.runIf(root)(
      'lets a game with oom_disabled wait at its memory limit instead of being killed (cgroup v1)',
      {
        timeout: 20_000,
      },
      async (context) => {
        if (sandbox.cgroups?.version !== 1 || !sandbox.cgroups.memory) context.skip();
        const grow = `node -e "const a=[];for(let i=0;i<12;i++){a.push(Buffer.alloc(16*1024*1024,1));console.log('allocated '+a.length*16+' MB')}"`;
        const { runtime, lines, exited, uuid } = await runGame(grow, {
          limits: { memoryMb: 128, oomDisabled: true },
        });
        let ended = false;
        void exited.then(
          () => {
            ended = true;
          },
          () => {},
        );
        await new Promise((resolve) => setTimeout(resolve, 3000));
        // Held at its limit, alive: the kernel did not kill it.
        expect(ended).toBe(false);
        expect(lines).not.toContain('allocated 192 MB');
        expect(sandbox.oomKills(uuid)).toBe(0);
        runtime.kill();
      },
    );

    it('stops a game that allocates past its memory limit', async () => {
      const grow = `node -e "const a=[];for(;;){a.push(Buffer.alloc(16*1024*1024,1));if(a.length%4===0)console.log('allocated '+a.length*16+' MB')}"`;
      const { lines, exited } = await runGame(grow, { limits: { memoryMb: 128 } });
      const exit = await exited;
      expect(exit.code).not.toBe(0);
      const reached = Math.max(
        0,
        ...lines.filter((l) => l.startsWith('allocated')).map((l) => Number(l.split(' ')[1])),
      );
      // With a memory cgroup the kernel stops it at the limit; with rlimits alone, at the address-space cap.
      expect(reached).toBeLessThan(sandbox.cgroups?.memory ? 160 : 1300);
      if (sandbox.cgroups?.memory) expect(exit.oomKilled).toBe(true);
    });

    it('runs an install script with the server files at /mnt/server and nothing else of the host', async () => {
      const { uuid, directory } = await volume();
      const driver = new ProcessDriver({
        tmpDirectory: path.join(dataDirectory, 'tmp'),
        runDirectory: path.join(dataDirectory, 'run'),
        sandbox,
      });
      const lines: string[] = [];
      const { exitCode } = await driver.install({
        uuid,
        directory,
        script: `cd /mnt/server\necho installed > server.jar\ncat ${dataDirectory}/app.key 2>/dev/null || echo "app.key: refused"\nls /mnt/install`,
        image: 'ignored',
        entrypoint: 'bash',
        environment: {},
        limits: TEST_LIMITS,
        onOutput: (line) => lines.push(line),
      });
      expect(exitCode).toBe(0);
      expect(lines).toEqual(['app.key: refused', 'install.sh']);
      expect(await readFile(path.join(directory, 'server.jar'), 'utf8')).toBe('installed\n');
    });
  },
);

describe('a node that cannot sandbox', () => {
  it('refuses to start servers, saying how to fix it', async () => {
    const runtime = testProcessRuntime(ProcessSandbox.unavailable('bubblewrap (bwrap) is not installed'));
    const directory = await mkdtemp(path.join(tmpdir(), 'aerie-unsandboxed-'));
    try {
      await expect(runtime.start(startOptions({ directory, startup: 'echo hi' }))).rejects.toThrow(
        SANDBOX_UNAVAILABLE_MESSAGE,
      );
      expect(runtime.running).toBe(false);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
