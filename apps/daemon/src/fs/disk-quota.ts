import { FilesystemError } from './filesystem-error';

/**
 * The server's disk allowance as the server manager keeps it. `limitBytes` 0 (or less) means unlimited, as a
 * Pterodactyl server with disk 0. `add` is told every change this module makes so a cached total stays right.
 */
export interface DiskQuota {
  limitBytes: number;
  usedBytes(): number | Promise<number>;
  add(deltaBytes: number): void;
}

export const unlimitedQuota: DiskQuota = {
  limitBytes: 0,
  usedBytes: () => 0,
  add: () => undefined,
};

/** Refuses when `current + delta` would pass the limit (Wings: checked before writing). */
export async function assertRoomFor(quota: DiskQuota, deltaBytes: number): Promise<void> {
  if (quota.limitBytes <= 0 || deltaBytes <= 0) return;
  const used = await quota.usedBytes();
  if (used + deltaBytes > quota.limitBytes) throw new FilesystemError('EQUOTA');
}

/** Bytes still free, or Infinity when unlimited. */
export async function remainingBytes(quota: DiskQuota): Promise<number> {
  if (quota.limitBytes <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, quota.limitBytes - (await quota.usedBytes()));
}
