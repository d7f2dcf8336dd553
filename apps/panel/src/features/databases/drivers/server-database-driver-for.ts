import type { HostCredentials } from './database-host-driver';
import { mysqlServerDatabases } from './mysql';
import { postgresServerDatabases } from './postgres';
import type { ServerDatabaseDriver } from './server-database-driver';

/** The driver that creates, rotates and drops a server's databases on a host of this kind. */
export const serverDatabaseDriverFor = (driver: HostCredentials['driver']): ServerDatabaseDriver =>
  driver === 'postgres' ? postgresServerDatabases : mysqlServerDatabases;
