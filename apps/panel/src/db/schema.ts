import type { ColumnType, Generated } from 'kysely';
import type { AccountTables } from './schema-account';
import type { ActivityTables } from './schema-activity';
import type { ApplicationTables } from './schema-application';
import type { AuditTables } from './schema-audit';
import type { BackupTables } from './schema-backups';
import type { DbBool, DbDate } from './schema-columns';
import type { DatabaseTables } from './schema-databases';
import type { MountTables } from './schema-mounts';
import type { OAuthTables } from './schema-oauth';
import type { ScheduleTables } from './schema-schedules';
import type { ServerTables } from './schema-servers';

export type { DbBool, DbDate } from './schema-columns';

type Flag = ColumnType<DbBool, boolean | undefined, boolean>;
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;
type NullableTimestamp = ColumnType<DbDate | null, Date | null | undefined, Date | null>;

export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  external_id: string | null;
  username: string;
  email: string;
  name_first: string | null;
  name_last: string | null;
  /** argon2id hash */
  password: string;
  language: Generated<string>;
  root_admin: Flag;
  use_totp: Flag;
  /** TOTP seed sealed with the app key (crypto/secret-box.ts). */
  totp_secret: string | null;
  totp_authenticated_at: NullableTimestamp;
  /** Last accepted TOTP time step (unix time / 30): a code of that step or older is refused (no replay). */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  gravatar: Flag;
  /** Migration 0016: the admin role of an admin below root (null: none). */
  admin_role_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 0018: false for an account a sign-in provider created, until a password reset gives it one. */
  has_password: Flag;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a stolen table cannot be replayed as cookies. */
  id: string;
  user_id: number | null;
  /** JSON object with the session's small state (pending 2FA checkpoint). */
  data: string;
  ip_address: string | null;
  user_agent: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface RecoveryTokensTable {
  id: Generated<number>;
  user_id: number;
  /** HMAC of the token under the app key. */
  token: string;
  created_at: CreatedAt;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  email: string;
  /** SHA-256 of the token sent by mail. */
  token: string;
  created_at: CreatedAt;
}

export interface Database
  extends ServerTables,
    AccountTables,
    ApplicationTables,
    ActivityTables,
    AuditTables,
    ScheduleTables,
    BackupTables,
    DatabaseTables,
    MountTables,
    OAuthTables {
  users: UsersTable;
  sessions: SessionsTable;
  recovery_tokens: RecoveryTokensTable;
  password_resets: PasswordResetsTable;
}
