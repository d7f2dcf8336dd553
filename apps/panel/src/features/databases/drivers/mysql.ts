import type { Connection } from 'mysql2/promise';
import { HOST_TIMEOUT_MS, type HostCredentials } from './database-host-driver';
import {
  checkDatabaseName,
  checkPassword,
  checkRemote,
  checkUsername,
  mysqlAccount,
  quoteMysqlGrantDatabase,
  quoteMysqlIdentifier,
} from './identifiers';
import type { HostDatabase, NewHostDatabase, ServerDatabaseDriver } from './server-database-driver';

/** What the user gets on its database: upstream's list (reference application API §5.3), no more. */
export const MYSQL_GRANTS =
  'SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, REFERENCES, INDEX, LOCK TABLES, CREATE ROUTINE, ' +
  'ALTER ROUTINE, EXECUTE, CREATE TEMPORARY TABLES, CREATE VIEW, SHOW VIEW, EVENT, TRIGGER';

async function connect(host: HostCredentials): Promise<Connection> {
  const mysql = await import('mysql2/promise');
  return mysql.createConnection({
    host: host.host,
    port: host.port,
    user: host.username,
    password: host.password,
    connectTimeout: HOST_TIMEOUT_MS,
  });
}

async function withConnection<T>(
  host: HostCredentials,
  work: (run: Run, connection: Connection) => Promise<T>,
) {
  const connection = await connect(host);
  const run: Run = async (sql) => {
    await connection.query({ sql, timeout: HOST_TIMEOUT_MS });
  };
  try {
    return await work(run, connection);
  } finally {
    await connection.end().catch(() => undefined);
  }
}

type Run = (sql: string) => Promise<void>;

/** The statements, one per query (mysql2 sends no multiple statements), each name checked then quoted. */
export const mysqlStatements = {
  createDatabase: (database: string) =>
    `CREATE DATABASE ${quoteMysqlIdentifier(checkDatabaseName(database))}`,
  /** `passwordLiteral` is the password already escaped by mysql2 (`connection.escape`). */
  createUser: (database: HostDatabase, passwordLiteral: string, maxConnections: number | null) =>
    `CREATE USER ${account(database)} IDENTIFIED BY ${passwordLiteral}` +
    (maxConnections ? ` WITH MAX_USER_CONNECTIONS ${Math.trunc(maxConnections)}` : ''),
  grant: (database: HostDatabase) =>
    `GRANT ${MYSQL_GRANTS} ON ${quoteMysqlGrantDatabase(checkDatabaseName(database.database))}.* TO ${account(database)}`,
  alterPassword: (database: HostDatabase, passwordLiteral: string) =>
    `ALTER USER ${account(database)} IDENTIFIED BY ${passwordLiteral}`,
  dropDatabase: (database: string) =>
    `DROP DATABASE IF EXISTS ${quoteMysqlIdentifier(checkDatabaseName(database))}`,
  dropUser: (database: HostDatabase) => `DROP USER IF EXISTS ${account(database)}`,
};

const account = (database: HostDatabase) =>
  mysqlAccount(checkUsername(database.username), checkRemote(database.remote));

/** Every name is checked before a connection is even opened. */
function checkNames(database: HostDatabase) {
  checkDatabaseName(database.database);
  account(database);
}

const literal = (connection: Connection, password: string) => connection.escape(checkPassword(password));

/**
 * MySQL and MariaDB hosts (mysql2): the database, a user `u…`@`remote` with the grants on it (and
 * MAX_USER_CONNECTIONS when a limit is set), `ALTER USER … IDENTIFIED BY` to rotate, and DROP of both. Unlike
 * upstream the database and user are created without IF NOT EXISTS: one that is already there fails the create
 * instead of being taken over, so undoing a failure only ever drops what this call made.
 */
export const mysqlServerDatabases: ServerDatabaseDriver = {
  async create(host, database: NewHostDatabase) {
    const statements = mysqlStatements;
    checkNames(database);
    await withConnection(host, async (run, connection) => {
      const made = { database: false, user: false };
      try {
        await run(statements.createDatabase(database.database));
        made.database = true;
        await run(
          statements.createUser(database, literal(connection, database.password), database.maxConnections),
        );
        made.user = true;
        await run(statements.grant(database));
      } catch (error) {
        if (made.user) await run(statements.dropUser(database)).catch(() => undefined);
        if (made.database) await run(statements.dropDatabase(database.database)).catch(() => undefined);
        throw error;
      }
    });
  },

  async rotatePassword(host, database, password) {
    checkNames(database);
    await withConnection(host, (run, connection) =>
      run(mysqlStatements.alterPassword(database, literal(connection, password))),
    );
  },

  async drop(host, database) {
    checkNames(database);
    await withConnection(host, async (run) => {
      await run(mysqlStatements.dropDatabase(database.database));
      await run(mysqlStatements.dropUser(database));
    });
  },
};
