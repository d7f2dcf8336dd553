import type { HostCredentials } from './database-host-driver';

/** A per-server database as a host sees it. */
export interface HostDatabase {
  /** `s{server}_{name}`. */
  database: string;
  /** `u{server}_{random}`. */
  username: string;
  /** Where the user may connect from; MySQL/MariaDB make it part of the account, PostgreSQL has no such thing. */
  remote: string;
}

export interface NewHostDatabase extends HostDatabase {
  password: string;
  /** 0 or null: no limit. */
  maxConnections: number | null;
}

/**
 * What the panel does to per-server databases on their host, with the host's admin account (reference application
 * API §5.3–5.5). `create` either makes the database and its user or leaves nothing behind: a failure drops what
 * this call made (never what existed before it) and rethrows. `drop` is idempotent.
 */
export interface ServerDatabaseDriver {
  create(host: HostCredentials, database: NewHostDatabase): Promise<void>;
  rotatePassword(host: HostCredentials, database: HostDatabase, password: string): Promise<void>;
  drop(host: HostCredentials, database: HostDatabase): Promise<void>;
}
