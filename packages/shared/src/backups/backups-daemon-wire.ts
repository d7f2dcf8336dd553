import type { BackupAdapter } from './backups-bodies';

/**
 * The panel ↔ daemon backup wire (reference/wings.md §1.3, §1.4, §7), snake_case as on the wire.
 *
 * Panel → daemon (node token):
 * - `POST /api/servers/{uuid}/backup` {@link DaemonBackupRequest} → 202, the backup runs in the background;
 * - `POST /api/servers/{uuid}/backup/{backup}/restore` {@link DaemonRestoreRequest} → 202;
 * - `DELETE /api/servers/{uuid}/backup/{backup}` → 204, 404 when the node has no such file.
 *
 * Daemon → panel (`/api/remote`, the node's `token_id.token`; the panel checks the backup's server is on that node):
 * - `GET /backups/{backup}?size=N` → {@link RemoteBackupPartsResponse} (s3 only: presigned part URLs);
 * - `POST /backups/{backup}` {@link RemoteBackupStatus} → 204;
 * - `POST /backups/{backup}/restore` {@link RemoteRestoreStatus} → 204.
 *
 * Browser → daemon: `GET /download/backup?token=<JWT>` (claims {@link BackupDownloadClaims}, one-time, 15 min).
 * Socket (to holders of `backup.read`): `backup completed:<uuid>` with {@link BackupCompletedEvent} as JSON in
 * `args[0]`; `backup restore completed` with `[""]` once a restore ended.
 */
export interface DaemonBackupRequest {
  adapter: BackupAdapter;
  uuid: string;
  /** Ignore rules, newline-separated; empty: the daemon reads `.pteroignore` from the server root. */
  ignore: string;
}

export interface DaemonRestoreRequest {
  adapter: BackupAdapter;
  /** Remove every file and folder of the server before extracting. */
  truncate_directory: boolean;
  /**
   * s3: a presigned GET of the archive (5 min); wings: null (the daemon opens its own file), or, for a server that
   * moved since, the signed download of the node that keeps the backup.
   */
  download_url: string | null;
}

export interface RemoteBackupPartsResponse {
  /** One presigned UploadPart URL per part, in order (part 1 first). */
  parts: string[];
  /** Bytes per part; the last part takes the rest. */
  part_size: number;
}

export interface RemoteBackupStatus {
  successful: boolean;
  /** SHA-1 of the archive, hex. */
  checksum: string;
  checksum_type: 'sha1';
  /** Bytes of the archive. */
  size: number;
  /** s3: the ETag the store answered to each part's PUT. */
  parts: { etag: string; part_number: number }[] | null;
}

export interface RemoteRestoreStatus {
  successful: boolean;
}

/** JWT claims of a backup download link (signed with the node's token, as the file links are). */
export interface BackupDownloadClaims {
  server_uuid: string;
  backup_uuid: string;
  unique_id: string;
  /** Only a token made for this route opens it (GHSA-8r6w-3qq5-4p4r). */
  purpose: typeof BACKUP_DOWNLOAD_PURPOSE;
}

export const BACKUP_DOWNLOAD_PURPOSE = 'backup_download';

/** `args[0]` (JSON) of `backup completed:<uuid>`. */
export interface BackupCompletedEvent {
  uuid: string;
  is_successful: boolean;
  /** Hex SHA-1, "" when it failed. */
  checksum: string;
  checksum_type: 'sha1';
  file_size: number;
}
