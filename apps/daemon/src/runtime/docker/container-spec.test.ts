import { tmpdir } from 'node:os';
import type { RuntimeLimits, RuntimeStartOptions } from '@aerie/daemon/runtime/runtime';
import { describe, expect, it } from 'vitest';
import {
  containerEnvironment,
  installerContainerSpec,
  publishedPorts,
  resourceLimits,
  serverContainerSpec,
} from './container-spec';
import { numericUser } from './container-user';
import { dockerFromHost } from './docker-connection';
import { DockerDriver } from './docker-driver';

const LIMITS: RuntimeLimits = {
  memoryMb: 1024,
  swapMb: 512,
  cpuPercent: 150,
  threads: '0-1',
  ioWeight: 500,
  oomDisabled: true,
  diskMb: 0,
};
const SETTINGS = { user: '988:988', networkName: 'aerie_nw', tmpfsSizeMb: 64, pidsLimit: 256, labels: {} };

const startOptions = (overrides: Partial<RuntimeStartOptions> = {}): RuntimeStartOptions => ({
  uuid: 'd3aac5f2-0000-4000-8000-000000000001',
  directory: '/srv/aerie/volumes/d3aac5f2',
  startup: 'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
  environment: {
    SERVER_IP: '127.0.0.1',
    SERVER_PORT: '25565',
    SERVER_MEMORY: '1024',
    SERVER_JARFILE: 'x.jar',
  },
  image: 'ghcr.io/pterodactyl/yolks:java_17',
  limits: LIMITS,
  allocations: { default: { ip: '127.0.0.1', port: 25565 }, mappings: { '127.0.0.1': [25565, 25566] } },
  ...overrides,
});

describe('container spec (no engine needed)', () => {
  it('turns the limits into engine units: memory ×1,000,000, swap added to memory, 100 % = one period', () => {
    expect(resourceLimits(LIMITS)).toEqual({
      Memory: 1_024_000_000,
      MemoryReservation: 1_024_000_000,
      MemorySwap: 1_536_000_000,
      CpuQuota: 150_000,
      CpuPeriod: 100_000,
      CpuShares: 1024,
      CpusetCpus: '0-1',
      OomKillDisable: true,
    });
    expect(resourceLimits({ ...LIMITS, swapMb: -1 }).MemorySwap).toBe(-1);
    expect(resourceLimits({ ...LIMITS, swapMb: 0 }).MemorySwap).toBe(1_024_000_000);
    // 0 = unlimited: nothing is set, so the engine applies none (and does not refuse swap without memory).
    expect(
      resourceLimits({ ...LIMITS, memoryMb: 0, cpuPercent: 0, threads: null, oomDisabled: false }),
    ).toEqual({
      OomKillDisable: false,
    });
  });

  it('publishes every port of every ip on tcp and udp, skipping invalid ports', () => {
    expect(
      publishedPorts({
        default: { ip: '0.0.0.0', port: 25565 },
        mappings: { '0.0.0.0': [25565, 0, 70000], '10.0.0.5': [25565] },
      }),
    ).toEqual({
      ExposedPorts: { '25565/tcp': {}, '25565/udp': {} },
      PortBindings: {
        '25565/tcp': [
          { HostIp: '0.0.0.0', HostPort: '25565' },
          { HostIp: '10.0.0.5', HostPort: '25565' },
        ],
        '25565/udp': [
          { HostIp: '0.0.0.0', HostPort: '25565' },
          { HostIp: '10.0.0.5', HostPort: '25565' },
        ],
      },
    });
  });

  it('passes the variables with STARTUP, HOME /home/container and SERVER_IP bindable inside the container', () => {
    expect(containerEnvironment(startOptions())).toEqual([
      'STARTUP=java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
      'SERVER_IP=0.0.0.0',
      'SERVER_PORT=25565',
      'SERVER_MEMORY=1024',
      'SERVER_JARFILE=x.jar',
      'HOME=/home/container',
    ]);
  });

  it('runs the startup through /bin/sh -c with {{VAR}} as quoted shell parameters, never their values', () => {
    const spec = serverContainerSpec(startOptions(), 'ghcr.io/pterodactyl/yolks:java_17', SETTINGS);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell parameters themselves are what is expected
    expect(spec.Cmd).toEqual(['/bin/sh', '-c', 'java -Xmx"${SERVER_MEMORY}"M -jar "${SERVER_JARFILE}"']);
    expect(spec.Entrypoint).toBeUndefined();
    expect(spec.HostConfig?.Tmpfs).toEqual({ '/tmp': 'rw,exec,nosuid,size=64M' });
    expect(spec.HostConfig?.PidsLimit).toBe(256);
    expect(spec.HostConfig).not.toHaveProperty('BlkioWeight');
  });

  it('keeps Aerie labels over extra ones', () => {
    const spec = serverContainerSpec(startOptions(), 'img', {
      ...SETTINGS,
      labels: { Service: 'Other', team: 'a' },
    });
    expect(spec.Labels).toEqual({ Service: 'Aerie', ContainerType: 'server_process', team: 'a' });
  });

  it('gives the installer at least 1 GB and one core, unlimited staying unlimited, and the installer hardening', () => {
    const install = (limits: RuntimeLimits) =>
      installerContainerSpec(
        {
          uuid: 'u',
          directory: '/srv/u',
          script: '',
          image: 'img',
          entrypoint: 'ash',
          environment: { A: '1' },
          limits,
          onOutput: () => {},
        },
        'img',
        '/tmp/u-install',
        SETTINGS,
      );
    const small = install({ ...LIMITS, memoryMb: 256, cpuPercent: 50 });
    expect(small.name).toBe('u_installer');
    expect(small.Entrypoint).toEqual(['ash', '/mnt/install/install.sh']);
    expect(small.HostConfig?.Memory).toBe(1_024_000_000);
    expect(small.HostConfig?.CpuQuota).toBe(100_000);
    // Package managers write the image's root and change owners; the rest of the hardening holds.
    expect(small.HostConfig).not.toHaveProperty('ReadonlyRootfs');
    expect(small.HostConfig?.SecurityOpt).toEqual(['no-new-privileges']);
    expect(small.HostConfig?.CapDrop).toEqual(expect.arrayContaining(['MKNOD', 'NET_RAW', 'SYS_CHROOT']));
    expect(small.HostConfig?.CapDrop).not.toContain('CHOWN');
    expect(small.HostConfig?.PidsLimit).toBe(SETTINGS.pidsLimit);
    expect(small.User).toBeUndefined();
    expect(small.HostConfig?.Mounts).toEqual([
      { Type: 'bind', Source: '/srv/u', Target: '/mnt/server', ReadOnly: false },
      { Type: 'bind', Source: '/tmp/u-install', Target: '/mnt/install', ReadOnly: true },
    ]);
    const big = install({ ...LIMITS, memoryMb: 4096, cpuPercent: 0 });
    expect(big.HostConfig?.Memory).toBe(4_096_000_000);
    expect(big.HostConfig).not.toHaveProperty('CpuQuota');
  });

  it('reads the container user and the engine address', () => {
    /** The connection settings docker-modem keeps (untyped in @types/dockerode). */
    type Modem = { socketPath?: string; host?: string; port?: string | number; protocol?: string };
    const modemOf = (host: string) => dockerFromHost(host).modem as unknown as Modem;
    expect(numericUser('988:988')).toEqual({ uid: 988, gid: 988 });
    expect(numericUser('1000')).toEqual({ uid: 1000, gid: 1000 });
    expect(numericUser('container')).toBeUndefined();
    expect(modemOf('unix:///tmp/x/docker.sock').socketPath).toBe('/tmp/x/docker.sock');
    expect(modemOf('/run/docker.sock').socketPath).toBe('/run/docker.sock');
    const tcp = modemOf('tcp://10.0.0.2:2375');
    expect([tcp.host, tcp.port, tcp.protocol]).toEqual(['10.0.0.2', '2375', 'http']);
  });
});

describe('without an engine', () => {
  const nowhere = 'unix:///tmp/aerie-no-engine-here.sock';
  const options = startOptions({ directory: tmpdir() });

  it('start and install say the engine does not answer, and where they looked', async () => {
    const driver = new DockerDriver({ dockerHost: nowhere });
    const message = `The Docker engine at ${nowhere} does not answer (ENOENT): is dockerd running, and is DOCKER_HOST right?`;
    const runtime = driver.createRuntime();
    await expect(runtime.start(options)).rejects.toThrow(message);
    expect(runtime.running).toBe(false);
    await expect(
      driver.install({
        uuid: options.uuid,
        directory: tmpdir(),
        script: 'true',
        image: 'img',
        entrypoint: 'bash',
        environment: {},
        limits: LIMITS,
        onOutput: () => {},
      }),
    ).rejects.toThrow(message);
  });
});
