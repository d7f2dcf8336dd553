import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeLimits } from '@aerie/daemon/runtime/runtime';

/** Wings' `docker.container_pid_limit`: a fork bomb stops here (GHSA-jj6m-r8jc-2gp7). */
export const SERVER_PIDS_LIMIT = 512;
/** Every server's group sits under this one, beside (not inside) the daemon's own group: games outlive it. */
const PARENT = 'aerie';
const CGROUP_ROOT = '/sys/fs/cgroup';

/** Which limits the host lets this daemon enforce through control groups. */
export interface CgroupSupport {
  version: 1 | 2;
  memory: boolean;
  pids: boolean;
  cpu: boolean;
}

/** Wings counts memory in decimal megabytes. */
const memoryBytes = (limits: RuntimeLimits) => Math.round(limits.memoryMb * 1_000_000);

/**
 * The control groups of one server: created before each start with the server's memory, CPU and pids limits, and
 * joined by the launcher before it execs the sandbox (so not one fork escapes them). v2 when the host runs the
 * unified hierarchy with controllers, else v1's per-controller hierarchies. Needs root (or a delegated tree).
 */
export class ServerCgroups {
  readonly #support: CgroupSupport;
  readonly #root: string;

  constructor(support: CgroupSupport, root = CGROUP_ROOT) {
    this.#support = support;
    this.#root = root;
  }

  get support(): CgroupSupport {
    return this.#support;
  }

  /**
   * Creates (or reuses) the server's groups and writes its limits; returns the `cgroup.procs` files the launcher
   * writes its own pid into. A limit of 0 is written as "max" (unlimited), so a lowered limit never lingers.
   */
  async prepare(uuid: string, limits: RuntimeLimits): Promise<string[]> {
    return this.#support.version === 2 ? this.#prepareV2(uuid, limits) : this.#prepareV1(uuid, limits);
  }

  /** Removes the server's groups once nothing runs in them (a group still holding processes stays). */
  async release(uuid: string): Promise<void> {
    for (const directory of this.#directories(uuid)) await rmdir(directory).catch(() => undefined);
  }

  /**
   * Ends every process still in the server's groups (what a run left when its holder died): the groups hold them
   * whatever process group or session they moved to. Returns how many there were.
   */
  killAll(uuid: string): number {
    const pids = new Set<number>();
    for (const directory of this.#directories(uuid)) {
      for (const pid of readOrEmpty(path.join(directory, 'cgroup.procs')).split('\n')) {
        if (/^\d+$/.test(pid)) pids.add(Number(pid));
      }
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    return pids.size;
  }

  /**
   * Memory the server's processes use, as Docker reports a container's: the group's usage without its inactive
   * file cache, every page counted once however many processes share it (a sum of RSS counts shared pages each
   * time: 724 MB once for a 256 MB server). Undefined without a memory group.
   */
  memoryInUse(uuid: string): number | undefined {
    if (!this.#support.memory) return undefined;
    const v2 = this.#support.version === 2;
    const directory = v2 ? path.join(this.#root, PARENT, uuid) : this.#v1(uuid, 'memory');
    const usage = Number(readOrEmpty(path.join(directory, v2 ? 'memory.current' : 'memory.usage_in_bytes')));
    if (!Number.isFinite(usage) || usage <= 0) return undefined;
    const stat = readOrEmpty(path.join(directory, 'memory.stat'));
    const inactive = new RegExp(`^${v2 ? 'inactive_file' : 'total_inactive_file'} (\\d+)$`, 'm').exec(stat);
    return Math.max(0, usage - (inactive ? Number(inactive[1]) : 0));
  }

  /** Whether the kernel killed a process of this server for memory since its group was made (v1 and v2). */
  oomKills(uuid: string): number {
    const [memory] = this.#support.version === 2 ? this.#directories(uuid) : [this.#v1(uuid, 'memory')];
    if (memory === undefined || !this.#support.memory) return 0;
    const file = this.#support.version === 2 ? 'memory.events' : 'memory.oom_control';
    const text = readOrEmpty(path.join(memory, file));
    const match = /oom_kill (\d+)/.exec(text);
    return match ? Number(match[1]) : 0;
  }

  #directories(uuid: string): string[] {
    if (this.#support.version === 2) return [path.join(this.#root, PARENT, uuid)];
    const controllers = (['memory', 'pids', 'cpu'] as const).filter((name) => this.#support[name]);
    return controllers.map((controller) => this.#v1(uuid, controller));
  }

  #v1(uuid: string, controller: string): string {
    return path.join(this.#root, controller, PARENT, uuid);
  }

  async #prepareV1(uuid: string, limits: RuntimeLimits): Promise<string[]> {
    const procs: string[] = [];
    if (this.#support.memory) {
      const directory = await makeGroup(this.#v1(uuid, 'memory'));
      // -1 is v1's "unlimited"; the swap limit first when lowering, or the kernel refuses memory below it.
      const memory = limits.memoryMb > 0 ? String(memoryBytes(limits)) : '-1';
      await writeFile(path.join(directory, 'memory.limit_in_bytes'), memory);
      // Wings' oom_disabled (Docker's OomKillDisable): at its limit the game waits for memory instead of being
      // killed. Only v1 can; v2 has no such switch (Docker ignores it there too).
      await writeFile(path.join(directory, 'memory.oom_control'), limits.oomDisabled ? '1' : '0').catch(
        () => undefined,
      );
      procs.push(path.join(directory, 'cgroup.procs'));
    }
    if (this.#support.pids) {
      const directory = await makeGroup(this.#v1(uuid, 'pids'));
      await writeFile(path.join(directory, 'pids.max'), String(SERVER_PIDS_LIMIT));
      procs.push(path.join(directory, 'cgroup.procs'));
    }
    if (this.#support.cpu) {
      const directory = await makeGroup(this.#v1(uuid, 'cpu'));
      await writeFile(path.join(directory, 'cpu.cfs_period_us'), '100000');
      const quota = limits.cpuPercent > 0 ? String(Math.round(limits.cpuPercent * 1000)) : '-1';
      await writeFile(path.join(directory, 'cpu.cfs_quota_us'), quota);
      procs.push(path.join(directory, 'cgroup.procs'));
    }
    return procs;
  }

  async #prepareV2(uuid: string, limits: RuntimeLimits): Promise<string[]> {
    const parent = path.join(this.#root, PARENT);
    await mkdir(parent, { recursive: true });
    const wanted = (['memory', 'pids', 'cpu'] as const).filter((name) => this.#support[name]);
    const enable = wanted.map((name) => `+${name}`).join(' ');
    // A controller reaches a group only when every ancestor passes it down; the root may pass it freely.
    await writeFile(path.join(this.#root, 'cgroup.subtree_control'), enable).catch(() => undefined);
    await writeFile(path.join(parent, 'cgroup.subtree_control'), enable);
    const directory = await makeGroup(path.join(parent, uuid));
    if (this.#support.memory) {
      const memory = limits.memoryMb > 0 ? String(memoryBytes(limits)) : 'max';
      await writeFile(path.join(directory, 'memory.max'), memory);
      const swap = limits.swapMb < 0 ? 'max' : String(Math.round(limits.swapMb * 1_000_000));
      await writeFile(path.join(directory, 'memory.swap.max'), swap).catch(() => undefined);
    }
    if (this.#support.pids) await writeFile(path.join(directory, 'pids.max'), String(SERVER_PIDS_LIMIT));
    if (this.#support.cpu) {
      const quota = limits.cpuPercent > 0 ? String(Math.round(limits.cpuPercent * 1000)) : 'max';
      await writeFile(path.join(directory, 'cpu.max'), `${quota} 100000`);
    }
    return [path.join(directory, 'cgroup.procs')];
  }
}

async function makeGroup(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  return directory;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * What this host lets us use, by trying: a group is made under the parent and removed again for each controller.
 * Undefined when the daemon cannot manage control groups (not root, read-only /sys/fs/cgroup, no controllers).
 */
export async function detectCgroups(root = CGROUP_ROOT): Promise<CgroupSupport | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const probe = `probe-${process.pid}`;
  const unified = readOrEmpty(path.join(root, 'cgroup.controllers')).split(/\s+/);
  if (unified.includes('memory') || unified.includes('pids')) {
    const support: CgroupSupport = {
      version: 2,
      memory: unified.includes('memory'),
      pids: unified.includes('pids'),
      cpu: unified.includes('cpu'),
    };
    const groups = new ServerCgroups(support, root);
    try {
      await groups.prepare(probe, {
        memoryMb: 0,
        swapMb: -1,
        cpuPercent: 0,
        threads: null,
        ioWeight: 0,
        oomDisabled: false,
        diskMb: 0,
      });
      return support;
    } catch {
      return undefined;
    } finally {
      await groups.release(probe);
    }
  }
  const usable = async (controller: string) => {
    const directory = path.join(root, controller, PARENT, probe);
    if (!existsSync(path.join(root, controller))) return false;
    try {
      await mkdir(directory, { recursive: true });
      return true;
    } catch {
      return false;
    } finally {
      await rmdir(directory).catch(() => undefined);
    }
  };
  const support: CgroupSupport = {
    version: 1,
    memory: await usable('memory'),
    pids: await usable('pids'),
    cpu: await usable('cpu'),
  };
  return support.memory || support.pids || support.cpu ? support : undefined;
}
