import type { DiskUsage } from '@aerie/daemon/disk/disk-usage';
import { DiskQuota } from '@aerie/daemon/fs/disk-quota';

/**
 * A server's quota for its filesystem, read live: the limit from the current configuration (so a sync that
 * changes it applies to the next write) and the used bytes from the server's disk counter, which every write
 * through the filesystem adjusts. The first check of a server never counted walks its directory once. One per
 * server, kept across reopenings of its filesystem, so reservations under way are never forgotten.
 */
export function serverDiskQuota(disk: DiskUsage, limitBytes: () => number): DiskQuota {
  return new DiskQuota({
    limitBytes,
    usedBytes: () => disk.refreshIfStale(),
    currentBytes: () => disk.bytes,
    add: (deltaBytes) => disk.add(deltaBytes),
  });
}
