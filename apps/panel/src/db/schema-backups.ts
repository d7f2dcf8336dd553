import type { ColumnType, Generated } from 'kysely';
import type { DbBool, DbDate } from './schema-columns';

/** Tables of migration 0008-backups. Read booleans, dates and `bytes` through db/dialect.ts. */
type Flag = ColumnType<DbBool, boolean | undefined, boolean>;
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;
type NullableTimestamp = ColumnType<DbDate | null, Date | null | undefined, Date | null>;

export interface BackupsTable {
  id: Generated<number>;
  server_id: number;
  uuid: string;
  /** The S3 multipart upload of the archive, while the node uploads it (s3 only). */
  upload_id: ColumnType<string | null, string | null | undefined, string | null>;
  is_successful: Flag;
  is_locked: Flag;
  name: string;
  /** JSON array of the ignore rules. */
  ignored_files: string;
  /** `wings` or `s3`. */
  disk: string;
  /** `sha1:<hex>` once it succeeded. */
  checksum: ColumnType<string | null, string | null | undefined, string | null>;
  /** A bigint: a string on PostgreSQL and MySQL. */
  bytes: ColumnType<number | string | bigint, number | undefined, number>;
  completed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface BackupTables {
  backups: BackupsTable;
}
