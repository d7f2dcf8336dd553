import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chownTreeNoFollow } from '@aerie/daemon/fs/ownership';
import { detectGameNetwork, type GameNetwork } from '@aerie/daemon/runtime/process/network/game-network';
import type { AllowedDestination } from '@aerie/daemon/runtime/process/network/game-network-plan';
import type { RuntimeAllocations, RuntimeLimits } from '@aerie/daemon/runtime/runtime';
import type { CustomMount } from '@aerie/daemon/server/custom-mounts';
import { type Bind, bubblewrapArgs, TMP_SIZE_BYTES } from './bubblewrap-args';
import { type CgroupSupport, detectCgroups, SERVER_PIDS_LIMIT, ServerCgroups } from './cgroups';
import { nodeRuntimePrefix, SANDBOX_HOME, sandboxPath, systemMounts } from './sandbox-mounts';
import { ServerUids } from './server-uids';
import { unshareArgs } from './unshare-launch';

/** Why servers cannot start on a host where no sandbox can be made: shown on the console and in the log. */
export const SANDBOX_UNAVAILABLE_MESSAGE =
  'This node cannot sandbox game servers, so it will not start them: install bubblewrap (apt-get install bubblewrap), or set RUNTIME=process-unsafe for single-user development only.';

/** Open files a server may hold (Docker's default soft limit is similar). */
export const SERVER_OPEN_FILES = 65_536;
/**
 * Address space granted above the memory limit where no memory cgroup can enforce it: runtimes reserve far more
 * virtual memory than they use (Node reserves ~1 GB before its first line), so the bare limit would stop them.
 */
export const ADDRESS_SPACE_HEADROOM_BYTES = 1024 * 1024 * 1024;

/** One command to run sandboxed for a server: its start-up, or its install script. */
export interface SandboxLaunchSpec {
  uuid: string;
  /** The server's volume on the host. */
  volume: string;
  /** Where the volume appears inside: /home/container for the game, /mnt/server for its installer. */
  mountPoint: string;
  /** Further host paths bound read-only (the install script's folder at /mnt/install). */
  readonly?: readonly { source: string; target: string }[];
  /** The server's custom mounts, checked against the node's allowed mounts. */
  mounts?: readonly CustomMount[];
  /** The command as it runs inside (`/bin/sh -c …`). */
  command: readonly string[];
  environment: Readonly<Record<string, string>>;
  limits: RuntimeLimits;
  /** The ports forwarded into the server's network namespace (none for an install script). */
  allocations?: RuntimeAllocations;
}

/** What to spawn: ready for child_process.spawn, with a detached process group. */
export interface SandboxLaunch {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * Which sandbox runs the command, if any: signals then skip the launcher (and bubblewrap's own init, where the
   * unshare sandbox's first process is the command itself).
   */
  sandboxed: false | 'bubblewrap' | 'unshare';
}

type Mode =
  | {
      kind: 'bubblewrap';
      bwrap: string;
      prlimit: string | undefined;
      /** A root daemon's tools to stage mounts and drop to a server's uid (util-linux). */
      setpriv: string | undefined;
      unshare: string | undefined;
    }
  | {
      /** No bubblewrap here: util-linux's unshare builds the same sandbox (mount, PID, IPC, UTS namespaces). */
      kind: 'unshare';
      prlimit: string | undefined;
      /** An empty folder of the daemon's to build each sandbox's root over, in its private mount namespace. */
      staging: string;
    }
  | { kind: 'unsafe' }
  | { kind: 'unavailable'; reason: string };

/**
 * How the process runtime isolates game code. With bubblewrap (the default) each server runs in its own user,
 * PID, IPC and mount namespaces, sees only its volume and a read-only system, and, when the daemon is root, runs
 * under its own unprivileged uid inside control groups that hold its memory, CPU and process count. Without a
 * sandbox the daemon refuses to start servers unless RUNTIME=process-unsafe says otherwise.
 */
export class ProcessSandbox {
  readonly #mode: Mode;
  readonly #uids: ServerUids | undefined;
  readonly #cgroups: ServerCgroups | undefined;
  /** A namespace per server, or why games share the host's network here. */
  readonly #network: GameNetwork | string;

  private constructor(
    mode: Mode,
    uids?: ServerUids,
    cgroups?: ServerCgroups,
    network: GameNetwork | string = 'no sandbox',
  ) {
    this.#mode = mode;
    this.#uids = uids;
    this.#cgroups = cgroups;
    this.#network = network;
  }

  /** Finds out what this host allows: bubblewrap by a real trial run, control groups by making one. */
  static async detect(options: {
    dataDirectory: string;
    unsafe?: boolean;
    /** Skip bubblewrap (tests of the fallback). */
    without?: 'bubblewrap';
    /** Destinations games may reach beyond the internet (DAEMON_GAME_NETWORK_ALLOW). */
    allowedDestinations?: readonly AllowedDestination[];
  }): Promise<ProcessSandbox> {
    if (options.unsafe) return new ProcessSandbox({ kind: 'unsafe' });
    const root = process.getuid?.() === 0;
    const bwrap = options.without === 'bubblewrap' ? undefined : findExecutable('bwrap');
    const uids = root ? new ServerUids(path.join(options.dataDirectory, 'sandbox-uids.json')) : undefined;
    const groups = async () => {
      const support = await detectCgroups();
      return support ? new ServerCgroups(support) : undefined;
    };
    const network = () =>
      detectGameNetwork({
        allowed: options.allowedDestinations ?? [],
        find: findExecutable,
        dataDirectory: options.dataDirectory,
      });
    if (!bwrap) {
      const fallback = await unshareMode(options.dataDirectory);
      if (typeof fallback === 'string') {
        return new ProcessSandbox({
          kind: 'unavailable',
          reason: `bubblewrap (bwrap) is not installed, and ${fallback}`,
        });
      }
      return new ProcessSandbox(fallback, uids, await groups(), await network());
    }
    const setpriv = root ? findExecutable('setpriv') : undefined;
    const unshare = root ? findExecutable('unshare') : undefined;
    if (root && (!setpriv || !unshare)) {
      return new ProcessSandbox({
        kind: 'unavailable',
        reason: 'setpriv and unshare (util-linux) are needed as root',
      });
    }
    const mode: Mode = { kind: 'bubblewrap', bwrap, prlimit: findExecutable('prlimit'), setpriv, unshare };
    const failure = trialRun(mode);
    if (failure) return new ProcessSandbox({ kind: 'unavailable', reason: failure });
    return new ProcessSandbox(mode, uids, await groups(), await network());
  }

  /** A sandbox that refuses every launch (for tests of the refusal, and hosts with nothing usable). */
  static unavailable(reason: string): ProcessSandbox {
    return new ProcessSandbox({ kind: 'unavailable', reason });
  }

  static unsafe(): ProcessSandbox {
    return new ProcessSandbox({ kind: 'unsafe' });
  }

  get kind(): Mode['kind'] {
    return this.#mode.kind;
  }

  /** The control groups in use, if any (what limits are enforced by the kernel rather than by rlimits). */
  get cgroups(): CgroupSupport | undefined {
    return this.#cgroups?.support;
  }

  /** One line for the daemon's start-up log: what isolates servers here and which limits hold. */
  describe(): string {
    const mode = this.#mode;
    if (mode.kind === 'unsafe') return 'process-unsafe: game servers run unsandboxed as the daemon user';
    if (mode.kind === 'unavailable') return `no sandbox (${mode.reason}); servers will not start`;
    const tool = mode.kind === 'bubblewrap' ? 'bubblewrap' : 'unshare (no bubblewrap)';
    const uid = this.#uids ? 'a uid per server' : 'the daemon user in its own user namespace';
    const support = this.#cgroups?.support;
    const groups = support
      ? `cgroup v${support.version} (${(['memory', 'pids', 'cpu'] as const).filter((c) => support[c]).join(', ')})`
      : 'rlimits only (no control groups)';
    const network =
      typeof this.#network === 'string' ? `the host's network (${this.#network})` : this.#network.describe();
    return `${tool}, ${uid}, ${groups}; network: ${network}`;
  }

  /** True when each server gets a network namespace of its own. */
  get isolatesNetwork(): boolean {
    return typeof this.#network !== 'string';
  }

  /**
   * Prepares the server's sandbox and says what to spawn: a root daemon hands the volume to the server's uid
   * (walking it without following a link) and sets up its control groups first.
   * @throws Error with SANDBOX_UNAVAILABLE_MESSAGE when no sandbox can be made here
   */
  async launch(spec: SandboxLaunchSpec): Promise<SandboxLaunch> {
    const mode = this.#mode;
    if (mode.kind === 'unavailable') throw new Error(SANDBOX_UNAVAILABLE_MESSAGE);
    if (mode.kind === 'unsafe') {
      const [file, ...args] = spec.command as [string, ...string[]];
      return {
        file,
        args,
        cwd: spec.volume,
        env: {
          PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
          HOME: spec.volume,
          ...spec.environment,
        },
        sandboxed: false,
      };
    }
    const uid = this.#uids ? await this.#uids.uidOf(spec.uuid) : undefined;
    if (uid !== undefined) {
      await chownTreeNoFollow(spec.volume, uid, uid);
      // Other servers' uids may not even look in; the daemon, root, still can.
      await chmod(spec.volume, 0o700);
    }
    const procs = this.#cgroups ? await this.#cgroups.prepare(spec.uuid, spec.limits) : [];
    const nodePrefix = nodeRuntimePrefix();
    const binds: Bind[] = [
      { source: spec.volume, target: spec.mountPoint, writable: true },
      ...(spec.readonly ?? []).map((bind) => ({ ...bind, writable: false })),
      ...(spec.mounts ?? []).map(({ source, target, readOnly }) => ({ source, target, writable: !readOnly })),
      ...(nodePrefix ? [{ source: nodePrefix, target: nodePrefix, writable: false }] : []),
    ];
    // A host resolving through 127.0.0.53 shows the game the servers behind it (bubblewrap only: the unshare
    // fallback binds folders, and its games then have no DNS).
    const resolvConf = typeof this.#network === 'string' ? undefined : this.#network.resolvConfBind;
    if (resolvConf && mode.kind === 'bubblewrap') binds.push({ ...resolvConf, writable: false });
    const inner = [...rlimitPrefix(mode.prlimit, spec.limits, this.#cgroups?.support), ...spec.command];
    const network = this.#network;
    const enterNetwork =
      typeof network === 'string'
        ? []
        : await network.enter(spec.uuid, spec.allocations).catch(async (error: unknown) => {
            await this.#cgroups?.release(spec.uuid);
            throw error;
          });
    const env = { PATH: sandboxPath(), HOME: SANDBOX_HOME, USER: 'container', ...spec.environment };
    // The namespace holds none of the host's addresses: the game listens on all of its own, as in a container.
    if (enterNetwork.length > 0 && 'SERVER_IP' in env) env.SERVER_IP = '0.0.0.0';
    if (mode.kind === 'unshare') {
      const { file, args } = unshareArgs({
        staging: mode.staging,
        mounts: systemMounts(),
        binds,
        cgroupProcs: procs,
        workingDirectory: spec.mountPoint,
        uid,
        tmpSizeBytes: TMP_SIZE_BYTES,
        command: inner,
      });
      const [entered, ...enteredArgs] = [...enterNetwork, file, ...args] as [string, ...string[]];
      return { file: entered, args: enteredArgs, cwd: '/', env, sandboxed: 'unshare' };
    }
    // A user-mode namespace makes the daemon's uid root there: bubblewrap shows the game its usual uid instead.
    const identity = typeof network === 'string' ? undefined : network.sandboxIdentity;
    const bwrapFor = (sources: readonly Bind[]) => [
      mode.bwrap,
      ...(identity ? ['--uid', String(identity.uid), '--gid', String(identity.gid)] : []),
      ...bubblewrapArgs({
        mounts: systemMounts(),
        binds: sources,
        workingDirectory: spec.mountPoint,
        command: inner,
      }),
    ];
    if (uid === undefined || mode.setpriv === undefined || mode.unshare === undefined) {
      const [file, ...args] = [...enterNetwork, ...bwrapFor(binds)];
      return { file: file as string, args, cwd: '/', env, sandboxed: 'bubblewrap' };
    }
    // As root: join the control groups, show each bind source at a staging path the server's uid can reach (the
    // volume sits in the daemon's 0700 data directory, nvm under /root), drop to that uid, then exec bubblewrap:
    // one process throughout, so nothing runs outside the groups, and the staging mounts live in a private mount
    // namespace that ends with it.
    await mkdir(STAGING, { recursive: true, mode: 0o755 });
    const staged = binds.map((bind, index) => ({ ...bind, source: `${STAGING}/${index}` }));
    const stagingArgs = binds.flatMap((bind, index) => [bind.source, String(index)]);
    const dropPrivileges = [
      mode.setpriv,
      `--reuid=${uid}`,
      `--regid=${uid}`,
      '--clear-groups',
      '--no-new-privs',
    ];
    return {
      file: mode.unshare,
      args: [
        '--mount',
        '--propagation',
        'private',
        '--',
        '/bin/sh',
        '-c',
        ROOT_LAUNCHER,
        'aerie-sandbox',
        ...procs,
        '--',
        ...stagingArgs,
        '--',
        ...enterNetwork,
        ...dropPrivileges,
        '--',
        ...bwrapFor(staged),
      ],
      cwd: '/',
      env,
      sandboxed: 'bubblewrap',
    };
  }

  /** The uid:gid a server's game runs as, when it is not the daemon's own (a root daemon gives each its own). */
  async ownerOf(uuid: string): Promise<{ uid: number; gid: number } | undefined> {
    // Only a sandbox made by a root daemon has uids of its own.
    if (!this.#uids) return undefined;
    const uid = await this.#uids.uidOf(uuid);
    return { uid, gid: uid };
  }

  /** Removes what a finished run left (its control groups). */
  async finished(uuid: string): Promise<void> {
    await this.#cgroups?.release(uuid);
    if (typeof this.#network !== 'string') await this.#network.release(uuid).catch(() => {});
  }

  /** Ends whatever still runs in the server's control groups (a run whose holder died); how many there were. */
  /** Ends the network namespaces of runs not in `running` (at boot, after adoption). @returns how many */
  async sweepNetwork(running: ReadonlySet<string>): Promise<number> {
    return typeof this.#network === 'string' ? 0 : this.#network.sweep(running);
  }

  endLeftovers(uuid: string): number {
    if (typeof this.#network !== 'string') void this.#network.release(uuid).catch(() => {});
    return this.#cgroups?.killAll(uuid) ?? 0;
  }

  /** Memory of the server's control group, counted as Docker does; undefined without one (then: a sum of RSS). */
  memoryInUse(uuid: string): number | undefined {
    return this.#cgroups?.memoryInUse(uuid);
  }

  /** Kernel out-of-memory kills in the server's control group since it was made (0 without a memory group). */
  oomKills(uuid: string): number {
    return this.#cgroups?.oomKills(uuid) ?? 0;
  }
}

/**
 * Where a root launcher shows the bind sources, inside its own mount namespace: an empty folder the daemon makes
 * once, which no bind source can lie under (a tmpfs over /tmp would hide volumes kept there).
 */
const STAGING = existsSync('/run') ? '/run/aerie-sandbox' : '/var/tmp/aerie-sandbox';

/**
 * Run as root in a fresh private mount namespace: writes its own pid into each `cgroup.procs` before the first
 * `--` (the groups hold from the first fork on), bind-mounts each `source name` pair at STAGING/name until the
 * second `--`, then execs the rest. Exit 125 when any step fails, before anything of the server has run.
 */
const ROOT_LAUNCHER = [
  'for procs; do shift; [ "$procs" = -- ] && break; echo $$ > "$procs" || exit 125; done',
  `mount -t tmpfs -o mode=0755,size=64k aerie-sandbox ${STAGING} || exit 125`,
  `while [ "$1" != -- ]; do { if [ -d "$1" ]; then mkdir "${STAGING}/$2"; else touch "${STAGING}/$2"; fi; } && mount --bind "$1" "${STAGING}/$2" || exit 125; shift 2; done`,
  'shift',
  'exec "$@"',
].join('\n');

/**
 * prlimit inside the sandbox, before the command: rlimits set there count only the sandbox's own processes (its
 * user namespace has its own process count), whatever the daemon's user runs elsewhere.
 */
function rlimitPrefix(
  prlimit: string | undefined,
  limits: RuntimeLimits,
  cgroups: CgroupSupport | undefined,
): string[] {
  if (!prlimit) return [];
  const openFiles = Math.min(SERVER_OPEN_FILES, hardOpenFilesLimit());
  const args = [prlimit, `--nofile=${openFiles}`, `--nproc=${SERVER_PIDS_LIMIT}`, '--core=0'];
  // No file may outgrow the disk limit (MiB, as Wings counts disk).
  if (limits.diskMb > 0) args.push(`--fsize=${limits.diskMb * 1024 * 1024}`);
  if (limits.memoryMb > 0 && !cgroups?.memory) {
    args.push(`--as=${Math.round(limits.memoryMb * 1_000_000) + ADDRESS_SPACE_HEADROOM_BYTES}`);
  }
  return [...args, '--'];
}

/** The daemon's own hard limit on open files: an unprivileged sandbox may lower it, never raise it. */
function hardOpenFilesLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((text) => text.startsWith('Max open files'));
    const hard = line?.trim().split(/\s+/)[4];
    return hard === undefined || hard === 'unlimited' ? Number.POSITIVE_INFINITY : Number(hard);
  } catch {
    return SERVER_OPEN_FILES;
  }
}

/** A trial sandbox, run as a server would be: the reason it failed, or undefined when it worked. */
function trialRun(mode: Extract<Mode, { kind: 'bubblewrap' }>): string | undefined {
  const args = bubblewrapArgs({
    mounts: systemMounts(),
    binds: [],
    workingDirectory: '/',
    command: ['/bin/sh', '-c', 'exit 0'],
  });
  // A root daemon's servers run unprivileged: nobody's uid tries what they will.
  const [file, ...rest] =
    mode.setpriv !== undefined
      ? [mode.setpriv, '--reuid=65534', '--regid=65534', '--clear-groups', '--', mode.bwrap, ...args]
      : [mode.bwrap, ...args];
  const failure = trialFailure(file as string, rest);
  return failure === undefined ? undefined : `bubblewrap could not create a sandbox here: ${failure}`;
}

/** Runs a trial sandbox to its end: the first line of what it said when it failed, else undefined. */
function trialFailure(file: string, args: readonly string[]): string | undefined {
  const result = spawnSync(file, args, { encoding: 'utf8', timeout: 10_000, env: { PATH: sandboxPath() } });
  if (result.status === 0) return undefined;
  return (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n')[0];
}

/**
 * The fallback when bubblewrap is missing: unshare, setpriv, chroot and mount (util-linux, coreutils), tried for
 * real. The mode, or why it cannot be used.
 */
async function unshareMode(dataDirectory: string): Promise<Extract<Mode, { kind: 'unshare' }> | string> {
  for (const tool of ['unshare', 'setpriv', 'chroot', 'mount']) {
    if (!findExecutable(tool)) return `${tool} is not installed`;
  }
  const staging = path.join(dataDirectory, 'sandbox-root');
  await mkdir(staging, { recursive: true, mode: 0o755 });
  const mode = { kind: 'unshare' as const, prlimit: findExecutable('prlimit'), staging };
  const { file, args } = unshareArgs({
    staging,
    mounts: systemMounts(),
    binds: [],
    cgroupProcs: [],
    workingDirectory: '/',
    // A root daemon's servers run unprivileged: nobody's uid tries what they will.
    uid: process.getuid?.() === 0 ? 65534 : undefined,
    tmpSizeBytes: TMP_SIZE_BYTES,
    command: ['/bin/sh', '-c', 'exit 0'],
  });
  const failure = trialFailure(file, args);
  return failure === undefined ? mode : `unshare could not create a sandbox here either: ${failure}`;
}

function findExecutable(name: string): string | undefined {
  const directories = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const directory of directories) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
