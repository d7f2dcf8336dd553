import { describe, expect, it } from 'vitest';
import { serverResourcesQueryOptions, usagePollMs } from '@/features/servers/api/server-resources';
import type { ServerStats } from '@/features/servers/api/transformers';
import { cardBadge, statusTone, usageAlarms } from '@/features/servers/components/server-usage';

const stats = (overrides: Partial<ServerStats> = {}): ServerStats => ({
  status: 'running',
  isSuspended: false,
  isNodeReconnecting: false,
  memoryUsageInBytes: 0,
  cpuUsagePercent: 0,
  diskUsageInBytes: 0,
  networkRxInBytes: 0,
  networkTxInBytes: 0,
  ...overrides,
});
const normal = { status: null, isTransferring: false };

describe('cardBadge', () => {
  it.each([
    [
      'suspended status',
      { status: 'suspended' as const, isTransferring: false },
      stats(),
      false,
      'suspended',
    ],
    ['suspended by the daemon', normal, stats({ isSuspended: true }), false, 'suspended'],
    ['usage failed', normal, undefined, true, 'connection_error'],
    ['usage failed after an earlier success', normal, stats(), true, 'connection_error'],
    ['waiting for usage', normal, undefined, false, 'loading'],
    ['transferring', { status: null, isTransferring: true }, undefined, true, 'transferring'],
    ['installing', { status: 'installing' as const, isTransferring: false }, undefined, false, 'installing'],
    [
      'restoring',
      { status: 'restoring_backup' as const, isTransferring: false },
      undefined,
      true,
      'restoring_backup',
    ],
    [
      'install failed',
      { status: 'install_failed' as const, isTransferring: false },
      undefined,
      true,
      'unavailable',
    ],
    ['usage loaded', normal, stats(), false, null],
  ])('%s → %s', (_, server, usage, failed, expected) => {
    expect(cardBadge(server, usage, failed)).toBe(expected);
  });
});

describe('usageAlarms', () => {
  it('flags 90 % of non-zero limits, with memory and disk limits in MB', () => {
    const mb = 1024 * 1024;
    expect(
      usageAlarms(
        { cpu: 50, memory: 100, disk: 100 },
        stats({ cpuUsagePercent: 45, memoryUsageInBytes: 90 * mb, diskUsageInBytes: 90 * mb - 1 }),
      ),
    ).toEqual({ cpu: true, memory: true, disk: false });
    expect(
      usageAlarms(
        { cpu: 0, memory: 0, disk: 0 },
        stats({ cpuUsagePercent: 999, memoryUsageInBytes: 1e12, diskUsageInBytes: 1e12 }),
      ),
    ).toEqual({ cpu: false, memory: false, disk: false });
  });
});

describe('statusTone', () => {
  it.each([
    [undefined, 'red'],
    [null, 'red'],
    ['offline', 'red'],
    ['running', 'green'],
    ['starting', 'amber'],
    ['stopping', 'amber'],
  ])('%j → %s', (state, tone) => expect(statusTone(state)).toBe(tone));
});

describe('usage polling', () => {
  it('polls every 30 s until the daemon reports the server suspended; never for a suspended server', () => {
    const options = serverResourcesQueryOptions('uuid', false);
    const interval = options.refetchInterval as (query: { state: { data?: ServerStats } }) => number | false;
    expect(usagePollMs).toBe(30_000);
    expect(interval({ state: { data: stats() } })).toBe(30_000);
    expect(interval({ state: { data: undefined } })).toBe(30_000);
    expect(interval({ state: { data: stats({ isSuspended: true }) } })).toBe(false);
    expect(options.enabled).toBe(true);
    expect(serverResourcesQueryOptions('uuid', true).enabled).toBe(false);
  });
});
