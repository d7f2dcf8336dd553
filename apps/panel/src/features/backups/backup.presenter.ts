import { toWireDate } from '@aerie/panel/db/dialect';
import type { BackupItem } from '@aerie/shared/backups/backups-wire';
import type { BackupRecord } from './backup-record';

/** `backup` (reference §6). */
export function presentBackup(backup: BackupRecord): BackupItem {
  return {
    object: 'backup',
    attributes: {
      uuid: backup.uuid,
      is_successful: backup.isSuccessful,
      is_locked: backup.isLocked,
      name: backup.name,
      ignored_files: backup.ignoredFiles,
      checksum: backup.checksum,
      bytes: backup.bytes,
      created_at: toWireDate(backup.createdAt),
      completed_at: backup.completedAt ? toWireDate(backup.completedAt) : null,
    },
  };
}
