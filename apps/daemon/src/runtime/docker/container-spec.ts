import type {
  InstallOptions,
  RuntimeAllocations,
  RuntimeLimits,
  RuntimeStartOptions,
} from '@aerie/daemon/runtime/runtime';
import { substituteStartup } from '@aerie/daemon/runtime/wings-environment';
import type { ContainerCreateOptions, HostConfig } from 'dockerode';

/** Where the server's directory is mounted in its container, and its working directory (Wings, yolks). */
export const CONTAINER_HOME = '/home/container';
/** Where an install script finds the server's files, and where the script itself is mounted. */
export const INSTALL_SERVER_MOUNT = '/mnt/server';
export const INSTALL_SCRIPT_MOUNT = '/mnt/install';

/** Every container Aerie creates carries this label, so they can be listed and cleaned up. */
export const SERVICE_LABEL = { Service: 'Aerie' } as const;

/** Wings drops these capabilities from every server container (§2.8). */
export const DROPPED_CAPABILITIES = [
  'SETPCAP',
  'MKNOD',
  'AUDIT_WRITE',
  'NET_RAW',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'SETFCAP',
] as const;

/**
 * The installer keeps what package managers need (chown, setuid to their own users, overriding file modes) and
 * loses the rest of Wings' list: it runs scripts fed user data as root (CVE-2023-32080).
 */
export const INSTALLER_DROPPED_CAPABILITIES = [
  'SETPCAP',
  'MKNOD',
  'AUDIT_WRITE',
  'NET_RAW',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'SETFCAP',
] as const;

/** An installer gets at least this much memory (MB) and CPU (% of a core): Wings' `docker.installer_limits`. */
export const INSTALLER_MINIMUM = { memoryMb: 1024, cpuPercent: 100 } as const;

/** The daemon's Docker settings that shape every container (Wings' `docker:` config block). */
export interface ContainerSettings {
  /** `uid:gid` the server process runs as. */
  user: string;
  networkName: string;
  tmpfsSizeMb: number;
  pidsLimit: number;
  /** Added to every container's labels (after Aerie's own, which they cannot replace). */
  labels: Readonly<Record<string, string>>;
}

/** Wings counts memory in decimal megabytes: MB × 1,000,000 (disk, unlike memory, uses MiB). */
const bytesOf = (mb: number) => Math.round(mb * 1_000_000);

/** Memory, swap, CPU and cpuset as the engine takes them; nothing for a limit of 0 (unlimited). */
export function resourceLimits(limits: RuntimeLimits): HostConfig {
  const resources: HostConfig = {};
  if (limits.memoryMb > 0) {
    const memory = bytesOf(limits.memoryMb);
    resources.Memory = memory;
    resources.MemoryReservation = memory;
    // MemorySwap is memory + swap; -1 lets the container swap without bound, memory + 0 forbids swapping.
    resources.MemorySwap = limits.swapMb < 0 ? -1 : memory + bytesOf(limits.swapMb);
  }
  if (limits.cpuPercent > 0) {
    // 100 % = one core = a full 100 ms period each 100 ms.
    resources.CpuQuota = Math.round(limits.cpuPercent * 1000);
    resources.CpuPeriod = 100_000;
    resources.CpuShares = 1024;
  }
  if (limits.threads) resources.CpusetCpus = limits.threads;
  // No BlkioWeight: cgroup v1 engines without the blkio weight controller reject or discard it.
  resources.OomKillDisable = limits.oomDisabled;
  return resources;
}

/** `25565/tcp` and `25565/udp` for every port, each published on every ip that maps it. */
export function publishedPorts(allocations: RuntimeAllocations): {
  ExposedPorts: Record<string, Record<string, never>>;
  PortBindings: Record<string, { HostIp: string; HostPort: string }[]>;
} {
  const ExposedPorts: Record<string, Record<string, never>> = {};
  const PortBindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const [ip, ports] of Object.entries(allocations.mappings)) {
    for (const port of ports) {
      if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
      for (const protocol of ['tcp', 'udp']) {
        const key = `${port}/${protocol}`;
        ExposedPorts[key] = {};
        const bindings = PortBindings[key] ?? [];
        if (!bindings.some((binding) => binding.HostIp === ip))
          bindings.push({ HostIp: ip, HostPort: String(port) });
        PortBindings[key] = bindings;
      }
    }
  }
  return { ExposedPorts, PortBindings };
}

/**
 * The server's variables as `NAME=value`, STARTUP included. SERVER_IP becomes 0.0.0.0 inside: the container has
 * its own network namespace holding none of the host's addresses, so a game binding the allocation's ip there
 * could not start; which host address answers is decided by the port bindings instead.
 */
export function containerEnvironment(options: RuntimeStartOptions): string[] {
  const environment: Record<string, string> = {
    STARTUP: options.startup,
    ...options.environment,
    HOME: CONTAINER_HOME,
  };
  if ('SERVER_IP' in environment) environment.SERVER_IP = '0.0.0.0';
  return Object.entries(environment).map(([name, value]) => `${name}=${value}`);
}

const LOCAL_LOGS = {
  Type: 'local',
  Config: { 'max-size': '5m', 'max-file': '1', compress: 'false', mode: 'non-blocking' },
};

/**
 * A server container as Wings creates it (§2.8): named after the server, a TTY with stdin kept open, the server's
 * directory as /home/container, a read-only root with a small /tmp, no new privileges, fewer capabilities, a
 * pids limit, the server's memory and CPU limits, and its ports published on tcp and udp. The startup command
 * runs through `/bin/sh -c` with `{{VAR}}` as shell parameters; an image entrypoint (yolks, node's) still runs
 * first and is handed that command.
 */
export function serverContainerSpec(
  options: RuntimeStartOptions,
  image: string,
  settings: ContainerSettings,
): ContainerCreateOptions {
  const { ExposedPorts, PortBindings } = publishedPorts(options.allocations);
  return {
    name: options.uuid,
    Hostname: options.uuid,
    Image: image,
    User: settings.user,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: false,
    Tty: true,
    Env: containerEnvironment(options),
    Cmd: ['/bin/sh', '-c', substituteStartup(options.startup)],
    WorkingDir: CONTAINER_HOME,
    ExposedPorts,
    Labels: { ...settings.labels, ...SERVICE_LABEL, ContainerType: 'server_process' },
    HostConfig: {
      Mounts: [
        { Type: 'bind', Source: options.directory, Target: CONTAINER_HOME, ReadOnly: false },
        ...(options.mounts ?? []).map(({ source, target, readOnly }) => ({
          Type: 'bind' as const,
          Source: source,
          Target: target,
          ReadOnly: readOnly,
        })),
      ],
      Tmpfs: { '/tmp': `rw,exec,nosuid,size=${settings.tmpfsSizeMb}M` },
      ReadonlyRootfs: true,
      SecurityOpt: ['no-new-privileges'],
      CapDrop: [...DROPPED_CAPABILITIES],
      PidsLimit: settings.pidsLimit,
      ...resourceLimits(options.limits),
      PortBindings,
      NetworkMode: settings.networkName,
      LogConfig: LOCAL_LOGS,
    },
  };
}

/**
 * The install container (§5): `<uuid>_installer`, the script's entrypoint running /mnt/install/install.sh, the
 * server's directory at /mnt/server. It runs as the image's user (scripts install packages) with no new
 * privileges, fewer capabilities, the pids limit and its script read-only, with at least 1 GB and one core, and no
 * stdin: a script that reads it gets end-of-file, not a hang.
 */
export function installerContainerSpec(
  options: InstallOptions,
  image: string,
  scriptDirectory: string,
  settings: ContainerSettings,
): ContainerCreateOptions {
  const limits: RuntimeLimits = {
    ...options.limits,
    memoryMb: options.limits.memoryMb > 0 ? Math.max(options.limits.memoryMb, INSTALLER_MINIMUM.memoryMb) : 0,
    cpuPercent:
      options.limits.cpuPercent > 0 ? Math.max(options.limits.cpuPercent, INSTALLER_MINIMUM.cpuPercent) : 0,
  };
  return {
    name: `${options.uuid}_installer`,
    Hostname: 'installer',
    Image: image,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    Env: Object.entries(options.environment).map(([name, value]) => `${name}=${value}`),
    // The entrypoint replaces the image's own, so an image whose entrypoint starts a server still installs.
    Entrypoint: [options.entrypoint, `${INSTALL_SCRIPT_MOUNT}/install.sh`],
    Cmd: [],
    WorkingDir: INSTALL_SERVER_MOUNT,
    Labels: { ...settings.labels, ...SERVICE_LABEL, ContainerType: 'server_installer' },
    HostConfig: {
      Mounts: [
        { Type: 'bind', Source: options.directory, Target: INSTALL_SERVER_MOUNT, ReadOnly: false },
        { Type: 'bind', Source: scriptDirectory, Target: INSTALL_SCRIPT_MOUNT, ReadOnly: true },
      ],
      Tmpfs: { '/tmp': `rw,exec,nosuid,size=${settings.tmpfsSizeMb}M` },
      SecurityOpt: ['no-new-privileges'],
      CapDrop: [...INSTALLER_DROPPED_CAPABILITIES],
      PidsLimit: settings.pidsLimit,
      ...resourceLimits(limits),
      NetworkMode: settings.networkName,
      LogConfig: LOCAL_LOGS,
    },
  };
}
