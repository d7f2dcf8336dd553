import type { ColumnType, Generated } from 'kysely';
import type { DbDate } from './schema';
import type { ApplicationKeyColumns } from './schema-application';

/** Tables of migration 0002-account-api-keys-settings. Read dates through db/dialect.ts. */
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;
type NullableTimestamp = ColumnType<DbDate | null, Date | null | undefined, Date | null>;

/** 1: an account (client) key, `ptlc_…`; 2: an application key of the admin area, `ptla_…`. */
export type ApiKeyType = 1 | 2;

export interface ApiKeysTable extends ApplicationKeyColumns {
  id: Generated<number>;
  user_id: number;
  key_type: ApiKeyType;
  /** `ptlc_` + 11 letters/digits: the public half of the bearer token. */
  identifier: string;
  /** SHA-256 hex of the 32-character secret; the secret itself is shown once and never stored. */
  token: string;
  /** JSON array of IPs and CIDR ranges; empty = any address. */
  allowed_ips: string;
  /** The key's description. */
  memo: string;
  last_used_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Panel-wide settings (`2fa_required`…) that override their environment default. */
export interface SettingsTable {
  key: string;
  value: string;
}

export interface AccountTables {
  api_keys: ApiKeysTable;
  settings: SettingsTable;
}
