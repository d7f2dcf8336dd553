import { readBool, readDate, readNullableDate } from '@aerie/panel/db/dialect';
import type { BackupsTable } from '@aerie/panel/db/schema-backups';
import type { Selectable } from 'kysely';

/** A backup as the services see it: booleans, dates and sizes normalised across dialects. */
export interface BackupRecord {
  id: number;
  serverId: number;
  uuid: string;
  uploadId: string | null;
  isSuccessful: boolean;
  isLocked: boolean;
  name: string;
  ignoredFiles: string[];
  /** `wings` or `s3` (any other value is a disk this panel has no adapter for). */
  disk: string;
  checksum: string | null;
  bytes: number;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Running: its node has not reported its end. Failed: it ended without an archive. */
export const isRunning = (backup: Pick<BackupRecord, 'completedAt'>) => backup.completedAt === null;
export const isFailed = (backup: Pick<BackupRecord, 'completedAt' | 'isSuccessful'>) =>
  backup.completedAt !== null && !backup.isSuccessful;

function readIgnored(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((rule): rule is string => typeof rule === 'string') : [];
  } catch {
    return [];
  }
}

export function toBackupRecord(row: Selectable<BackupsTable>): BackupRecord {
  return {
    id: row.id,
    serverId: row.server_id,
    uuid: row.uuid,
    uploadId: row.upload_id,
    isSuccessful: readBool(row.is_successful),
    isLocked: readBool(row.is_locked),
    name: row.name,
    ignoredFiles: readIgnored(row.ignored_files),
    disk: row.disk,
    checksum: row.checksum,
    bytes: Number(row.bytes),
    completedAt: readNullableDate(row.completed_at),
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}
