import type { RuntimeUsage } from '@aerie/daemon/runtime/runtime';
import type { ContainerStats } from 'dockerode';

/** What the runtime reports before the first sample and once the container is gone. */
export const NO_USAGE: RuntimeUsage = {
  memoryBytes: 0,
  memoryLimitBytes: 0,
  cpuAbsolute: 0,
  rxBytes: 0,
  txBytes: 0,
};

/** The parts of a stats sample the usage is computed from; engines leave some out (no network, cgroup v2). */
export type StatsSample = {
  memory_stats?: Partial<Omit<ContainerStats['memory_stats'], 'stats'>> & {
    stats?: { total_inactive_file?: number; inactive_file?: number };
  };
  cpu_stats?: Partial<Omit<ContainerStats['cpu_stats'], 'cpu_usage'>> & {
    cpu_usage?: { total_usage?: number; percpu_usage?: number[] | null };
  };
  precpu_stats?: StatsSample['cpu_stats'];
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
};

/**
 * Memory the way `docker stats` and Wings count it: usage without the inactive page cache, which the kernel
 * reclaims first — `total_inactive_file` on cgroup v1, `inactive_file` on v2 — when it is smaller than usage.
 */
function memoryBytes(memory: NonNullable<StatsSample['memory_stats']>): number {
  const usage = memory.usage ?? 0;
  const inactive = memory.stats?.total_inactive_file ?? memory.stats?.inactive_file;
  return inactive !== undefined && inactive < usage ? usage - inactive : usage;
}

/**
 * CPU since the previous sample: the container's share of the machine's CPU time × online CPUs × 100, so 100 is
 * one full core and two busy cores read 200. Rounded to 3 decimals like Wings.
 */
function cpuAbsolute(sample: StatsSample): number {
  const now = sample.cpu_stats;
  const before = sample.precpu_stats;
  const cpuDelta = (now?.cpu_usage?.total_usage ?? 0) - (before?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (now?.system_cpu_usage ?? 0) - (before?.system_cpu_usage ?? 0);
  if (cpuDelta <= 0 || systemDelta <= 0) return 0;
  const cpus = now?.online_cpus || now?.cpu_usage?.percpu_usage?.length || 1;
  return Math.round((cpuDelta / systemDelta) * cpus * 100 * 1000) / 1000;
}

/** One usage reading from one engine stats sample. */
export function usageFromStats(sample: StatsSample): RuntimeUsage {
  let rxBytes = 0;
  let txBytes = 0;
  for (const network of Object.values(sample.networks ?? {})) {
    rxBytes += network.rx_bytes ?? 0;
    txBytes += network.tx_bytes ?? 0;
  }
  return {
    memoryBytes: sample.memory_stats ? memoryBytes(sample.memory_stats) : 0,
    memoryLimitBytes: sample.memory_stats?.limit ?? 0,
    cpuAbsolute: cpuAbsolute(sample),
    rxBytes,
    txBytes,
  };
}
