import { randomUUID } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RuntimeExit, RuntimeLimits, RuntimeStartOptions } from '@aerie/daemon/runtime/runtime';
import { wingsEnvironment } from '@aerie/daemon/runtime/wings-environment';
import { DEMO_SERVER, waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DROPPED_CAPABILITIES } from './container-spec';
import { DockerDriver } from './docker-driver';
import { ensureImage } from './docker-images';
import type { DockerRuntime } from './docker-runtime';
import {
  describeWithEngine,
  ensureTestImages,
  findEngine,
  freePort,
  removeLabelled,
  TEST_IMAGE,
} from './docker-test-engine';

const docker = await findEngine();
/** Every container of this file carries it, so afterAll removes exactly these. */
const RUN_LABEL = 'aerie.test-run';
const runId = randomUUID();

const LIMITS: RuntimeLimits = {
  memoryMb: 256,
  swapMb: 0,
  cpuPercent: 50,
  threads: '0',
  ioWeight: 500,
  oomDisabled: false,
  diskMb: 0,
};

describeWithEngine('DockerRuntime (real engine)', docker, () => {
  const driver = new DockerDriver({ docker, labels: { [RUN_LABEL]: runId } });
  const directories: string[] = [];
  const runtimes: DockerRuntime[] = [];

  beforeAll(async () => {
    if (docker) await ensureTestImages(docker);
  }, 120_000);
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) runtime.kill();
  });
  afterAll(async () => {
    if (docker) await removeLabelled(docker, RUN_LABEL, runId);
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  }, 30_000);

  /** A server directory holding the demo game server, and start options for it on a free 127.0.0.1 port. */
  async function demoServer(overrides: Partial<RuntimeStartOptions> = {}): Promise<RuntimeStartOptions> {
    const directory = await mkdtemp(path.join(tmpdir(), 'aerie-docker-test-'));
    directories.push(directory);
    await copyFile(DEMO_SERVER, path.join(directory, 'demo-server.mjs'));
    const port = await freePort();
    const startup = overrides.startup ?? 'node demo-server.mjs';
    return {
      uuid: randomUUID(),
      directory,
      startup,
      environment: wingsEnvironment({
        invocation: startup,
        memoryMb: LIMITS.memoryMb,
        ip: '127.0.0.1',
        port,
        timezone: 'UTC',
        variables: { MOTD: 'Hello from a container', P_SERVER_UUID: 'test' },
      }),
      image: 'node:20-bookworm-slim',
      limits: LIMITS,
      allocations: { default: { ip: '127.0.0.1', port }, mappings: { '127.0.0.1': [port] } },
      ...overrides,
    };
  }

  /** Starts a runtime and collects its lines; `started` resolves on the demo server's start line. */
  async function start(options: RuntimeStartOptions) {
    const runtime = driver.createRuntime() as DockerRuntime;
    runtimes.push(runtime);
    const lines: string[] = [];
    runtime.on('output', (line) => lines.push(line));
    const exited = waitForEvent<[RuntimeExit]>(runtime, 'exit', () => true, 30_000).then(([exit]) => exit);
    const started = waitForEvent<[string]>(
      runtime,
      'output',
      (line) => line.startsWith('Server started on '),
      20_000,
    );
    await runtime.start(options);
    return { runtime, lines, exited, started };
  }

  const inspect = (uuid: string) => {
    if (!docker) throw new Error('no engine');
    return docker.getContainer(uuid).inspect();
  };

  it('runs the demo server: start line, a console command on stdin, `stop` ends it with exit 0', async () => {
    const options = await demoServer();
    const { runtime, lines, exited, started } = await start(options);
    const [startLine] = await started;
    expect(startLine).toContain(`Server started on 0.0.0.0:${options.allocations.default.port}`);
    expect(runtime.running).toBe(true);
    expect(lines).toContain('Message of the day: Hello from a container');
    expect(lines).toContain('Memory limit: 256 MB');

    const said = waitForEvent<[string]>(runtime, 'output', (line) => line === '[Server] hello', 10_000);
    runtime.write('say hello');
    await said;

    runtime.write('stop');
    expect(await exited).toEqual({ code: 0, signal: null, oomKilled: false });
    expect(lines.slice(-2)).toEqual(['Stopping server...', 'Server stopped.']);
    expect(runtime.running).toBe(false);
    expect(await runtime.usage()).toEqual({
      memoryBytes: 0,
      memoryLimitBytes: 0,
      cpuAbsolute: 0,
      rxBytes: 0,
      txBytes: 0,
    });
  }, 60_000);

  it('stops on a signal (SIGINT, the egg stop `^C`) sent to the container', async () => {
    const { runtime, lines, exited, started } = await start(await demoServer());
    await started;
    runtime.signal('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null, oomKilled: false });
    expect(lines).toContain('Server stopped.');
  }, 60_000);

  it('kills the container at once (SIGKILL, exit 137)', async () => {
    const { runtime, lines, exited, started } = await start(await demoServer());
    await started;
    runtime.kill();
    expect(await exited).toEqual({ code: 137, signal: null, oomKilled: false });
    expect(lines).not.toContain('Stopping server...');
    runtime.write('say too late'); // ignored, not thrown
  }, 60_000);

  it('publishes the allocation: the demo server answers a player on the host port', async () => {
    const options = await demoServer();
    const { runtime, exited, started } = await start(options);
    await started;
    // Listened for before the player connects: the game may log the join before its greeting reaches us.
    const joining = waitForEvent<[string]>(runtime, 'output', (line) => line.includes('joined the game'));
    const socket = connect(options.allocations.default.port, '127.0.0.1');
    socket.setEncoding('utf8');
    const greeting = await new Promise<string>((resolve, reject) => {
      let received = '';
      socket.on('data', (chunk: string) => {
        received += chunk;
        if (received.includes('\n')) resolve(received);
      });
      socket.once('error', reject);
    });
    expect(greeting).toMatch(/^Welcome to Aerie Demo, player1! Hello from a container\n/);
    const joined = await joining;
    expect(joined[0]).toBe('player1 joined the game (1 online)');
    socket.destroy();
    runtime.write('stop');
    expect((await exited).code).toBe(0);
  }, 60_000);

  it("gives a game no route to the host's loopback services, through its gateway or otherwise", async () => {
    // What a Redis, a database or the panel on the node listen on by default.
    const service = createServer((socket) => socket.end('host service\n'));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const port = (service.address() as { port: number }).port;
    const probe = [
      "const net=require('net'),fs=require('fs');",
      "const row=fs.readFileSync('/proc/net/route','utf8').split('\\n').find(l=>l.split('\\t')[1]==='00000000');",
      "const hex=row.split('\\t')[2];const gw=[3,2,1,0].map(i=>parseInt(hex.slice(i*2,i*2+2),16)).join('.');",
      'const probe=(name,host)=>new Promise(done=>{const s=net.connect({host,port:Number(process.env.PROBE_PORT),timeout:2000});',
      "const end=r=>{s.destroy();console.log('probe '+name+' '+r);done()};s.on('connect',()=>end('ok'));s.on('timeout',()=>end('blocked'));s.on('error',()=>end('blocked'))});",
      "(async()=>{await probe('gateway',gw);await probe('loopback','127.0.0.1');console.log('probes done')})();",
    ].join('');
    const options = await demoServer({ startup: `node -e "${probe.replaceAll('"', '\\"')}"` });
    const { runtime, lines, exited } = await start({
      ...options,
      environment: { ...options.environment, PROBE_PORT: String(port) },
    });
    try {
      await exited;
      expect(lines.filter((line) => line.startsWith('probe '))).toEqual([
        'probe gateway blocked',
        'probe loopback blocked',
      ]);
    } finally {
      runtime.kill();
      service.close();
    }
  }, 60_000);

  it('carries out a kill that arrives while the container is still being created', async () => {
    const runtime = driver.createRuntime();
    runtimes.push(runtime as DockerRuntime);
    const exited = waitForEvent<[RuntimeExit]>(runtime, 'exit', () => true, 30_000);
    const starting = runtime.start(await demoServer());
    runtime.kill();
    await starting;
    expect((await exited)[0]).toEqual({ code: 137, signal: null, oomKilled: false });
  }, 60_000);

  it('refuses to start when the host port is taken, saying why', async () => {
    const options = await demoServer();
    const blocker = createServer();
    await new Promise<void>((resolve) =>
      blocker.listen(options.allocations.default.port, '127.0.0.1', resolve),
    );
    try {
      const runtime = driver.createRuntime();
      await expect(runtime.start(options)).rejects.toThrow(
        /^The server's container could not start: .*(address already in use|port is already allocated)/,
      );
      expect(runtime.running).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('creates the container with the limits and hardening of Wings (inspect)', async () => {
    const options = await demoServer();
    const { runtime, exited, started } = await start(options);
    await started;
    const info = await inspect(options.uuid);
    expect(info.Name).toBe(`/${options.uuid}`);
    expect(info.Config.Hostname).toBe(options.uuid);
    expect(info.Config.User).toBe('988:988');
    expect(info.Config.Tty).toBe(true);
    expect(info.Config.OpenStdin).toBe(true);
    expect(info.Config.WorkingDir).toBe('/home/container');
    expect(info.Config.Labels).toMatchObject({ Service: 'Aerie', ContainerType: 'server_process' });
    expect(info.Config.Env).toContain('SERVER_IP=0.0.0.0');
    expect(info.Config.Env).toContain('STARTUP=node demo-server.mjs');
    expect(info.HostConfig.Memory).toBe(256_000_000);
    expect(info.HostConfig.MemoryReservation).toBe(256_000_000);
    expect(info.HostConfig.MemorySwap).toBe(256_000_000);
    expect(info.HostConfig.CpuQuota).toBe(50_000);
    expect(info.HostConfig.CpuPeriod).toBe(100_000);
    expect(info.HostConfig.CpusetCpus).toBe('0');
    expect(info.HostConfig.PidsLimit).toBe(512);
    expect(info.HostConfig.OomKillDisable).toBe(false);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.SecurityOpt).toEqual(['no-new-privileges']);
    expect(info.HostConfig.CapDrop).toEqual([...DROPPED_CAPABILITIES]);
    expect(info.HostConfig.Tmpfs).toEqual({ '/tmp': 'rw,exec,nosuid,size=100M' });
    expect(info.HostConfig.LogConfig?.Type).toBe('local');
    expect(info.HostConfig.NetworkMode).toBe('aerie_nw');
    const port = options.allocations.default.port;
    expect(info.HostConfig.PortBindings).toEqual({
      [`${port}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(port) }],
      [`${port}/udp`]: [{ HostIp: '127.0.0.1', HostPort: String(port) }],
    });
    expect(info.Mounts).toEqual([
      expect.objectContaining({
        Type: 'bind',
        Source: options.directory,
        Destination: '/home/container',
        RW: true,
      }),
    ]);
    runtime.kill();
    await exited;
  }, 60_000);

  it('runs the process unprivileged in a read-only root, with /home/container and /tmp writable', async () => {
    const { runtime, lines, exited } = await start(
      await demoServer({
        startup:
          'id -u; touch /etc/probe 2>/dev/null || echo root-read-only; touch /tmp/t && echo tmp-ok; touch x && ls -n x | awk "{print \\$3}"; grep NoNewPrivs /proc/self/status',
      }),
    );
    expect(await exited).toEqual({ code: 0, signal: null, oomKilled: false });
    expect(lines.map((line) => line.replace(/\s+/g, ' '))).toEqual([
      '988',
      'root-read-only',
      'tmp-ok',
      '988',
      'NoNewPrivs: 1',
    ]);
    expect(runtime.running).toBe(false);
  }, 60_000);

  it('shows custom mounts at their targets: a read-only one cannot be written, a writable one can', async () => {
    const shared = await mkdtemp(path.join(tmpdir(), 'aerie-docker-mount-'));
    directories.push(shared);
    const maps = path.join(shared, 'maps');
    const cache = path.join(shared, 'cache');
    await mkdir(maps);
    await mkdir(cache);
    await writeFile(path.join(maps, 'world.txt'), 'a shared map\n');
    // The game runs as uid 988: it reads what anyone may read, and writes the cache opened to all.
    await chmod(shared, 0o755);
    await chmod(maps, 0o755);
    await chmod(cache, 0o777);
    const { exited, lines } = await start(
      await demoServer({
        startup:
          'cat /mnt/maps/world.txt; (echo x > /mnt/maps/world.txt) 2>/dev/null && echo ro-written || echo ro-refused; echo cached > /srv/cache/item && echo rw-written',
        mounts: [
          { source: maps, target: '/mnt/maps', readOnly: true },
          { source: cache, target: '/srv/cache', readOnly: false },
        ],
      }),
    );
    expect((await exited).code).toBe(0);
    expect(lines).toEqual(['a shared map', 'ro-refused', 'rw-written']);
    expect(await readFile(path.join(maps, 'world.txt'), 'utf8')).toBe('a shared map\n');
    expect(await readFile(path.join(cache, 'item'), 'utf8')).toBe('cached\n');
  }, 60_000);

  it('splits the TTY stream into lines without \\r, a line over 64 KiB cut there', async () => {
    const { exited, lines } = await start(
      await demoServer({
        startup: `node -e "process.stdout.write('a'.repeat(100000) + '\\nsecond\\r\\nthird')"`,
      }),
    );
    expect((await exited).code).toBe(0);
    expect(lines).toEqual(['a'.repeat(64 * 1024), 'second', 'third']);
  }, 60_000);

  it('reports usage while running: memory in use, the container limit, network counters', async () => {
    const { runtime, exited, started } = await start(await demoServer());
    await started;
    // Started is the container's start: the game inside may still be loading, its memory not yet counted.
    await expect
      .poll(async () => (await runtime.usage()).memoryBytes, { timeout: 20_000, interval: 200 })
      .toBeGreaterThan(1_000_000);
    const usage = await runtime.usage();
    expect(usage.memoryBytes).toBeLessThan(256_000_000);
    expect(usage.memoryLimitBytes).toBe(256_000_000);
    expect(usage.cpuAbsolute).toBeGreaterThanOrEqual(0);
    expect(usage.rxBytes).toBeGreaterThanOrEqual(0);
    runtime.write('stop');
    await exited;
  }, 60_000);

  it('holds a busy loop to its CPU limit, and usage shows it (50 % of a core reads about 50)', async () => {
    const { runtime, exited } = await start(
      await demoServer({
        startup: 'echo busy; node -e "for (;;) {}"',
        limits: { ...LIMITS, cpuPercent: 50 },
      }),
    );
    const samples: number[] = [];
    await expect
      .poll(
        async () => {
          samples.push((await runtime.usage()).cpuAbsolute);
          return samples.filter((cpu) => cpu > 25).length;
        },
        { timeout: 15_000, interval: 1000 },
      )
      .toBeGreaterThanOrEqual(2);
    // The engine samples about once a second; a quota of 50 ms per 100 ms keeps every sample near 50.
    expect(Math.max(...samples)).toBeLessThan(65);
    runtime.kill();
    expect((await exited).code).toBe(137);
  }, 60_000);

  it('reports an out-of-memory kill: exit 137 with oomKilled', async () => {
    const { exited } = await start(
      await demoServer({
        startup: 'echo allocating; dd if=/dev/zero of=/dev/null bs=64M count=4',
        limits: { ...LIMITS, memoryMb: 16 },
      }),
    );
    expect(await exited).toEqual({ code: 137, signal: null, oomKilled: true });
  }, 60_000);

  it('falls back to the local image when the pull fails', async () => {
    if (!docker) throw new Error('no engine');
    // The repository exists nowhere: the pull fails with or without a network, the local tag is used.
    await expect(docker.pull(TEST_IMAGE)).rejects.toThrow();
    expect(await ensureImage(docker, TEST_IMAGE)).toBe(TEST_IMAGE);
    const { exited, lines } = await start(
      await demoServer({ startup: 'echo from-local', image: TEST_IMAGE }),
    );
    expect((await exited).code).toBe(0);
    expect(lines).toEqual(['from-local']);
  }, 60_000);

  it('refuses to start with a clear error when the image can be neither pulled nor found locally', async () => {
    const runtime = driver.createRuntime();
    await expect(runtime.start(await demoServer({ image: 'aerie-test/missing:none' }))).rejects.toThrow(
      /^The image aerie-test\/missing:none could not be pulled and there is no local copy: /,
    );
    await expect(runtime.start(await demoServer())).rejects.toThrow(/already been started/);
    await expect(
      driver.createRuntime().start(await demoServer({ image: '~aerie-test/missing:none' })),
    ).rejects.toThrow(
      "The image aerie-test/missing:none is marked local only (~) and this machine's Docker engine does not have it.",
    );
    expect(runtime.running).toBe(false);
  }, 60_000);

  it('refuses a server directory that does not exist', async () => {
    const options = await demoServer();
    await expect(
      driver.createRuntime().start({ ...options, directory: `${options.directory}-gone` }),
    ).rejects.toThrow(`The server directory ${options.directory}-gone does not exist.`);
  });

  it('replaces an old container of the server on start, and destroy removes it', async () => {
    if (!docker) throw new Error('no engine');
    const options = await demoServer({ startup: 'echo run' });
    const first = await start(options);
    await first.exited;
    const firstId = (await inspect(options.uuid)).Id;
    const second = await start(options);
    expect((await second.exited).code).toBe(0);
    expect((await inspect(options.uuid)).Id).not.toBe(firstId);
    await driver.destroy(options.uuid);
    await expect(inspect(options.uuid)).rejects.toMatchObject({ statusCode: 404 });
    await driver.destroy(options.uuid); // nothing left: still fine
  }, 60_000);
});
