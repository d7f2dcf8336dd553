import { describe, expect, it } from 'vitest';
import { usageFromStats } from './docker-stats';

describe('usage from an engine stats sample (no engine needed)', () => {
  it('cgroup v1: memory without total_inactive_file, cpu from the deltas × online CPUs, networks summed', () => {
    expect(
      usageFromStats({
        memory_stats: { usage: 50_000_000, limit: 256_000_000, stats: { total_inactive_file: 8_000_000 } },
        cpu_stats: {
          cpu_usage: { total_usage: 3_500_000_000 },
          system_cpu_usage: 20_000_000_000,
          online_cpus: 2,
        },
        precpu_stats: { cpu_usage: { total_usage: 3_000_000_000 }, system_cpu_usage: 18_000_000_000 },
        networks: { eth0: { rx_bytes: 1000, tx_bytes: 200 }, eth1: { rx_bytes: 24, tx_bytes: 6 } },
      }),
    ).toEqual({
      memoryBytes: 42_000_000,
      memoryLimitBytes: 256_000_000,
      cpuAbsolute: 50,
      rxBytes: 1024,
      txBytes: 206,
    });
  });

  it('cgroup v2: inactive_file; rounds CPU to 3 decimals; CPUs counted from percpu_usage when online_cpus is 0', () => {
    const usage = usageFromStats({
      memory_stats: { usage: 10_000, limit: 20_000, stats: { inactive_file: 4_000 } },
      cpu_stats: {
        cpu_usage: { total_usage: 1_000_000, percpu_usage: [1, 2, 3, 4] },
        system_cpu_usage: 3_000_000,
        online_cpus: 0,
      },
      precpu_stats: { cpu_usage: { total_usage: 0 }, system_cpu_usage: 0 },
    });
    expect(usage).toEqual({
      memoryBytes: 6_000,
      memoryLimitBytes: 20_000,
      cpuAbsolute: 133.333,
      rxBytes: 0,
      txBytes: 0,
    });
  });

  it('keeps usage when the inactive cache is not smaller; the first sample (no previous) has no CPU', () => {
    expect(
      usageFromStats({
        memory_stats: { usage: 1_000, limit: 5_000, stats: { total_inactive_file: 1_000 } },
        cpu_stats: { cpu_usage: { total_usage: 900 }, system_cpu_usage: 10_000, online_cpus: 2 },
        precpu_stats: {},
      }),
    ).toMatchObject({ memoryBytes: 1_000, cpuAbsolute: 18 });
    expect(usageFromStats({})).toEqual({
      memoryBytes: 0,
      memoryLimitBytes: 0,
      cpuAbsolute: 0,
      rxBytes: 0,
      txBytes: 0,
    });
  });
});
