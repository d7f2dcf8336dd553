import type { Item, List, Pagination } from '../servers/server-wire';

/**
 * Wire shapes of `/api/client/servers/{server}/backups*` (reference §6 `backup`, §7.2 "Backups"). Times are ISO 8601
 * with `+00:00`; `completed_at` is null while the backup runs.
 */
export interface BackupAttributes {
  uuid: string;
  is_successful: boolean;
  is_locked: boolean;
  name: string;
  /** The ignore rules it was made with, one per entry (blank lines dropped). */
  ignored_files: string[];
  /** `sha1:<hex>`, null until it completed successfully. */
  checksum: string | null;
  /** The archive's size in bytes, 0 until it completed successfully. */
  bytes: number;
  created_at: string;
  completed_at: string | null;
}

export type BackupItem = Item<'backup', BackupAttributes>;
export type BackupResponse = BackupItem;

/** GET /backups: a page (20 a page by default, `per_page` at most 50) and the server's count of non-failed backups. */
export interface BackupListResponse extends List<BackupItem> {
  meta: { pagination: Pagination; backup_count: number };
}

/** GET /backups/{backup}/download: where the browser goes to download it (one-time daemon link, or S3 presigned). */
export interface BackupDownloadResponse {
  object: 'signed_url';
  attributes: { url: string };
}

/** Backups per page (reference §0 "Pagination": 20 by default, at most 50). */
export const backupPageSize = { default: 20, max: 50 } as const;
