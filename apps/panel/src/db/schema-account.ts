import type { ColumnType, Generated } from 'kysely';
import type { ApplicationKeyColumns } from './schema-application';
import type { DbBool, DbDate } from './schema-columns';

/** Tables of migrations 0002-account-api-keys-settings, 0005-user-ssh-keys, 0010-sign-in-addresses and 0017-passkeys. Read dates through db/dialect.ts. */
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

/** A user's SSH public key for SFTP logins (migration 0005-user-ssh-keys). */
export interface UserSshKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 of the key's OpenSSH blob, unpadded base64 (no `SHA256:` prefix). */
  fingerprint: string;
  /** The key as PKCS#8 (SPKI) PEM. */
  public_key: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Set when the user removed it (soft delete): such a key no longer logs anyone in. */
  deleted_at: NullableTimestamp;
}

/** Panel-wide settings (`2fa_required`…) that override their environment default. */
export interface SettingsTable {
  key: string;
  value: string;
}

/** An address a user signed in from (migration 0010-sign-in-addresses). */
export interface SignInAddressesTable {
  user_id: number;
  /** HMAC-SHA-256 hex, under the app key, of the address (an IPv6 address by its /64). */
  address_hash: string;
  last_used_at: Timestamp;
}

/** A passkey (WebAuthn credential) of an account (migration 0017-passkeys). */
export interface UserPasskeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 hex of the credential id: what a sign-in looks the passkey up by. */
  credential_hash: string;
  /** The credential id, base64url. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter (a string on PostgreSQL: bigint). */
  counter: ColumnType<number | string, number | undefined, number>;
  /** JSON array of AuthenticatorTransport names the browser reported. */
  transports: string;
  backed_up: ColumnType<DbBool, boolean | undefined, boolean>;
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
}

export interface AccountTables {
  api_keys: ApiKeysTable;
  user_passkeys: UserPasskeysTable;
  settings: SettingsTable;
  user_ssh_keys: UserSshKeysTable;
  sign_in_addresses: SignInAddressesTable;
}
