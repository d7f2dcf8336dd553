import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InstallOptions, RuntimeExit, RuntimeLimits } from '@aerie/daemon/runtime/runtime';
import { wingsEnvironment } from '@aerie/daemon/runtime/wings-environment';
import { waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DockerDriver } from './docker-driver';
import {
  describeWithEngine,
  ensureTestImages,
  findEngine,
  freePort,
  removeLabelled,
} from './docker-test-engine';

const docker = await findEngine();
const RUN_LABEL = 'aerie.test-run';
const runId = randomUUID();
const EGG_FILE = fileURLToPath(new URL('../../../../../eggs/aerie-demo.json', import.meta.url));
const DEMO_SOURCE = fileURLToPath(new URL('../../../../../eggs/demo/demo-server.mjs', import.meta.url));

const LIMITS: RuntimeLimits = {
  memoryMb: 256,
  swapMb: 0,
  cpuPercent: 50,
  threads: null,
  ioWeight: 500,
  oomDisabled: false,
  diskMb: 0,
};

interface DemoEgg {
  startup: string;
  scripts: { installation: { script: string; container: string; entrypoint: string } };
}

describeWithEngine('DockerDriver.install (real engine)', docker, () => {
  const directories: string[] = [];
  let scripts: string;
  let driver: DockerDriver;

  beforeAll(async () => {
    if (docker) await ensureTestImages(docker);
    scripts = await mkdtemp(path.join(tmpdir(), 'aerie-docker-install-scripts-'));
    directories.push(scripts);
    driver = new DockerDriver({ docker, labels: { [RUN_LABEL]: runId }, tmpDirectory: scripts });
  }, 120_000);
  afterAll(async () => {
    if (docker) await removeLabelled(docker, RUN_LABEL, runId);
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  }, 30_000);

  async function installOptions(overrides: Partial<InstallOptions> = {}) {
    const directory = await mkdtemp(path.join(tmpdir(), 'aerie-docker-install-'));
    directories.push(directory);
    const lines: string[] = [];
    const options: InstallOptions = {
      uuid: randomUUID(),
      directory,
      script: 'echo nothing',
      image: 'node:20-bookworm-slim',
      entrypoint: 'bash',
      environment: { SERVER_PORT: '25565', MOTD: 'installing' },
      limits: LIMITS,
      onOutput: (line) => lines.push(line),
      ...overrides,
    };
    return { options, lines, directory };
  }

  it("runs the demo egg's install script in its container: demo-server.mjs lands in the directory, then runs", async () => {
    const egg = JSON.parse(await readFile(EGG_FILE, 'utf8')) as DemoEgg;
    const { installation } = egg.scripts;
    const { options, lines, directory } = await installOptions({
      script: installation.script,
      image: installation.container,
      entrypoint: installation.entrypoint,
    });
    expect(await driver.install(options)).toEqual({ exitCode: 0 });
    const demoSource = await readFile(DEMO_SOURCE, 'utf8');
    expect(await readFile(path.join(directory, 'demo-server.mjs'), 'utf8')).toBe(`${demoSource.trimEnd()}\n`);
    expect(lines).toEqual([
      'Writing demo-server.mjs...',
      `Installed demo-server.mjs (${Buffer.byteLength(`${demoSource.trimEnd()}\n`)} bytes). Start the server to play.`,
    ]);
    // The installer ran as root; the server runs unprivileged after the start's permission fix.
    expect((await stat(path.join(directory, 'demo-server.mjs'))).uid).toBe(0);
    if (!docker) throw new Error('no engine');
    await expect(docker.getContainer(`${options.uuid}_installer`).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await readdir(scripts)).toEqual([]);

    const port = await freePort();
    const runtime = driver.createRuntime();
    const started = waitForEvent<[string]>(
      runtime,
      'output',
      (line) => line.startsWith('Server started'),
      20_000,
    );
    const exited = waitForEvent<[RuntimeExit]>(runtime, 'exit', () => true, 30_000);
    await runtime.start({
      uuid: options.uuid,
      directory,
      startup: egg.startup,
      environment: wingsEnvironment({
        invocation: egg.startup,
        memoryMb: 256,
        ip: '127.0.0.1',
        port,
        variables: {},
      }),
      image: installation.container,
      limits: LIMITS,
      allocations: { default: { ip: '127.0.0.1', port }, mappings: { '127.0.0.1': [port] } },
    });
    await started;
    expect((await stat(path.join(directory, 'demo-server.mjs'))).uid).toBe(988);
    runtime.write('stop');
    expect((await exited)[0].code).toBe(0);
  }, 90_000);

  it('passes the environment, mounts /mnt/server and reports a failing exit code', async () => {
    const { options, lines, directory } = await installOptions({
      script:
        'set -e\necho "port=$SERVER_PORT motd=$MOTD pwd=$(pwd)"\necho made > /mnt/server/made.txt\nexit 3\n',
    });
    expect(await driver.install(options)).toEqual({ exitCode: 3 });
    expect(lines).toEqual(['port=25565 motd=installing pwd=/mnt/server']);
    expect(await readFile(path.join(directory, 'made.txt'), 'utf8')).toBe('made\n');
  }, 60_000);

  it('raises the limits to at least 1 GB and one core, and an abort kills the installer at once', async () => {
    if (!docker) throw new Error('no engine');
    const abort = new AbortController();
    const { options, lines } = await installOptions({
      script: 'echo waiting\nsleep 60\necho never\n',
      signal: abort.signal,
    });
    const startedAt = Date.now();
    const installing = driver.install(options);
    await expect.poll(() => lines, { timeout: 20_000 }).toEqual(['waiting']);
    const info = await docker.getContainer(`${options.uuid}_installer`).inspect();
    expect(info.HostConfig.Memory).toBe(1_024_000_000);
    expect(info.HostConfig.CpuQuota).toBe(100_000);
    expect(info.Config.Labels).toMatchObject({ Service: 'Aerie', ContainerType: 'server_installer' });
    abort.abort();
    expect(await installing).toEqual({ exitCode: 137 });
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(lines).toEqual(['waiting']);
    await expect(docker.getContainer(`${options.uuid}_installer`).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
  }, 60_000);

  it('fails clearly when the installer image is missing', async () => {
    const { options } = await installOptions({ image: 'aerie-test/missing:none' });
    await expect(driver.install(options)).rejects.toThrow(
      /^The image aerie-test\/missing:none could not be pulled and there is no local copy: /,
    );
  }, 30_000);
});
