import type { ServerListItem, ServerStats } from '@/features/servers/api/transformers';
import { megabytesToBytes } from '@/utils/format-bytes';

/** Share of a limit at which a figure turns red (spec §9). */
export const alarmThreshold = 0.9;

export type StatusTone = 'red' | 'green' | 'amber';

/** Spec §4: offline or no state is red, running is green, anything else (starting, stopping…) amber. */
export function statusTone(state: string | undefined | null): StatusTone {
  if (!state || state === 'offline') return 'red';
  return state === 'running' ? 'green' : 'amber';
}

export interface UsageAlarms {
  cpu: boolean;
  memory: boolean;
  disk: boolean;
}

/** A figure is flagged at 90 % of a non-zero limit; memory and disk limits are in MB. A limit of 0 is Unlimited. */
export function usageAlarms(limits: ServerListItem['limits'], stats: ServerStats): UsageAlarms {
  const over = (used: number, limit: number) => limit > 0 && used >= limit * alarmThreshold;
  return {
    cpu: over(stats.cpuUsagePercent, limits.cpu),
    memory: over(stats.memoryUsageInBytes, megabytesToBytes(limits.memory)),
    disk: over(stats.diskUsageInBytes, megabytesToBytes(limits.disk)),
  };
}

export type CardBadge =
  | 'suspended'
  | 'transferring'
  | 'installing'
  | 'restoring_backup'
  | 'unavailable'
  | 'connection_error'
  | 'loading';

/**
 * What a card shows instead of its usage figures (spec §4 "Card badges"), or null when the figures show.
 * A server in a conflict state says why before a failed usage call does: the daemon refuses usage for it anyway.
 */
export function cardBadge(
  server: Pick<ServerListItem, 'status' | 'isTransferring'>,
  stats: ServerStats | undefined,
  failed: boolean,
): CardBadge | null {
  if (server.status === 'suspended' || stats?.isSuspended) return 'suspended';
  if (stats && !failed) return null;
  if (server.isTransferring) return 'transferring';
  if (server.status === 'installing') return 'installing';
  if (server.status === 'restoring_backup') return 'restoring_backup';
  if (server.status) return 'unavailable';
  return failed ? 'connection_error' : 'loading';
}
