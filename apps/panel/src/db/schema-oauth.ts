import type { ColumnType, Generated } from 'kysely';
import type { DbBool, DbDate } from './schema-columns';

/** Tables of migration 0018-oauth-providers. Read booleans and dates through db/dialect.ts. */
type Flag = ColumnType<DbBool, boolean | undefined, boolean>;

/** An identity provider users may sign in with (OpenID Connect, or the Discord and GitHub presets). */
export interface OAuthProvidersTable {
  id: Generated<number>;
  /** The `{provider}` of /auth/oauth/{provider}/…; unique. */
  slug: string;
  name: string;
  /** `oidc`, `discord` or `github`. */
  kind: string;
  /** OpenID Connect only. */
  issuer: string | null;
  client_id: string;
  /** Sealed with the app key (crypto/secret-box.ts). */
  client_secret: string;
  /** JSON array of scope names. */
  scopes: string;
  enabled: Flag;
  create_accounts: Flag;
  /** JSON array of lower-case domains; empty: any. */
  email_domains: string;
  allow_two_factor_accounts: Flag;
  created_at: ColumnType<DbDate, Date, never>;
  updated_at: ColumnType<DbDate, Date, Date>;
}

/** A panel account linked to a provider's account (its `sub`, Discord's or GitHub's user id). */
export interface UserOAuthLinksTable {
  id: Generated<number>;
  user_id: number;
  provider_id: number;
  subject: string;
  /** The provider's email for the account when it was linked. */
  email: string | null;
  created_at: ColumnType<DbDate, Date, never>;
}

export interface OAuthTables {
  oauth_providers: OAuthProvidersTable;
  user_oauth_links: UserOAuthLinksTable;
}
