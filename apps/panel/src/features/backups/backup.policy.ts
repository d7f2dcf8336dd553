import { hasPermission } from '@aerie/shared/permissions/can';

/**
 * Rules on backups a route's permission cannot express. `is_locked` on create is honoured only for a caller who
 * may delete backups (Pelican's StoreBackupRequest: locking is part of `backup.delete`); anyone else's backup starts
 * unlocked, whatever they sent.
 */
export const canSetLocked = (access: { permissions: readonly string[] }): boolean =>
  hasPermission(access.permissions, 'backup.delete');

/** A locked backup that completed successfully cannot be deleted; a failed (or running) one can. */
export const isDeletionBlocked = (backup: {
  isLocked: boolean;
  isSuccessful: boolean;
  completedAt: Date | null;
}): boolean => backup.isLocked && backup.isSuccessful && backup.completedAt !== null;
