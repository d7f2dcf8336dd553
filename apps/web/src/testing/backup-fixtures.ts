import type { BackupAttributes, BackupItem, BackupListResponse } from '@aerie/shared/backups/backups-wire';

/** A `backup` (reference §6): successful, unlocked, created an hour ago and done a minute later, unless told. */
export function backupItem(overrides: Partial<BackupAttributes> & { uuid: string }): BackupItem {
  const created = new Date(Date.now() - 60 * 60_000);
  return {
    object: 'backup',
    attributes: {
      is_successful: true,
      is_locked: false,
      name: `Backup ${overrides.uuid}`,
      ignored_files: [],
      checksum: 'sha1:0123456789abcdef0123456789abcdef01234567',
      bytes: 5 * 1024 * 1024,
      created_at: created.toISOString(),
      completed_at: new Date(created.getTime() + 60_000).toISOString(),
      ...overrides,
    },
  };
}

/** A backup still running: not successful, no checksum, no size, no completion time. */
export const runningBackupItem = (overrides: Partial<BackupAttributes> & { uuid: string }) =>
  backupItem({ is_successful: false, checksum: null, bytes: 0, completed_at: null, ...overrides });

/** A backup that ended badly. */
export const failedBackupItem = (overrides: Partial<BackupAttributes> & { uuid: string }) =>
  backupItem({ is_successful: false, checksum: null, bytes: 0, ...overrides });

/** GET …/backups' answer: one page (20 a page) and the server's count of running and successful backups. */
export function backupList(
  items: BackupItem[],
  { backupCount = items.length, currentPage = 1, totalPages = 1 } = {},
): BackupListResponse {
  return {
    object: 'list',
    data: items,
    meta: {
      pagination: {
        total: Math.max(items.length, (totalPages - 1) * 20 + items.length),
        count: items.length,
        per_page: 20,
        current_page: currentPage,
        total_pages: totalPages,
        links: [],
      },
      backup_count: backupCount,
    },
  };
}
