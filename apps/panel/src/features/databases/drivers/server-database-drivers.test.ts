import {
  adminQuery,
  connectAs,
  credentialsOf,
  hostHas,
  randomPart,
  skipWithoutHosts,
  testHostUrls,
} from '@aerie/panel/features/databases/testing-hosts';
import { closedPort } from '@aerie/panel/test/closed-port';
import { describe, expect, it } from 'vitest';
import {
  checkDatabaseName,
  checkRemote,
  checkUsername,
  mysqlAccount,
  quoteMysqlGrantDatabase,
  quoteMysqlIdentifier,
  quotePostgresIdentifier,
  UnsafeIdentifierError,
} from './identifiers';
import { mysqlStatements } from './mysql';
import { postgresStatements } from './postgres';
import { serverDatabaseDriverFor } from './server-database-driver-for';

const password = () => `Pw${randomPart(16)}!@=.`;
const target = (remote = '%') => ({
  database: `s9_drv_${randomPart()}`,
  username: `u9_${randomPart(10)}`,
  remote,
  password: password(),
  maxConnections: null,
});

describe('identifiers', () => {
  it('quotes names as each host’s grammar wants, doubling the quote inside', () => {
    expect(quoteMysqlIdentifier('a`b')).toBe('`a``b`');
    expect(quotePostgresIdentifier('a"b')).toBe('"a""b"');
    expect(mysqlAccount('u1_x', '%')).toBe('`u1_x`@`%`');
    // _ and % are wildcards in a GRANT's database name: escaped, so s1_a does not also grant s1xa.
    expect(quoteMysqlGrantDatabase('s1_a%b')).toBe('`s1\\_a\\%b`');
  });

  it.each([
    's1_ok',
    's12_a-b_c',
    's1_--',
    's1_-- comment',
    's1_a`; DROP DATABASE mysql; --',
    's1_a"; DROP DATABASE postgres; --',
    "s1_a'",
    's1_a.b',
    's1_a b',
    's1_é',
    'x1_ok',
    's1ok',
    `s1_${'a'.repeat(46)}`,
  ])('accepts a database name only when the rules allow it: %s', (name) => {
    const allowed = /^s\d+_[A-Za-z0-9_-]+$/.test(name) && name.length <= 48;
    if (allowed) expect(checkDatabaseName(name)).toBe(name);
    else expect(() => checkDatabaseName(name)).toThrow(UnsafeIdentifierError);
  });

  it('refuses usernames and remotes outside their rules, before any statement is built', () => {
    expect(() => checkUsername('u1_abc`@`%')).toThrow(UnsafeIdentifierError);
    expect(() => checkUsername('root')).toThrow(UnsafeIdentifierError);
    expect(() => checkRemote("%' OR '1'='1")).toThrow(UnsafeIdentifierError);
    expect(() => checkRemote('a`b')).toThrow(UnsafeIdentifierError);
    expect(checkRemote('192.168.%')).toBe('192.168.%');
    expect(checkRemote('::1')).toBe('::1');
    expect(() => mysqlStatements.dropDatabase('s1_x`; DROP DATABASE mysql; --')).toThrow(
      UnsafeIdentifierError,
    );
    expect(() => postgresStatements.dropRole('u1_x"; DROP ROLE aerie; --')).toThrow(UnsafeIdentifierError);
  });

  it('writes the statements of the documentation', () => {
    const database = { database: 's3_game', username: 'u3_AbCdEfGhIj', remote: '%' };
    expect(mysqlStatements.createDatabase('s3_game')).toBe('CREATE DATABASE `s3_game`');
    expect(mysqlStatements.createUser(database, "'pw'", 5)).toBe(
      "CREATE USER `u3_AbCdEfGhIj`@`%` IDENTIFIED BY 'pw' WITH MAX_USER_CONNECTIONS 5",
    );
    expect(mysqlStatements.grant(database)).toBe(
      'GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, REFERENCES, INDEX, LOCK TABLES, CREATE ROUTINE, ' +
        'ALTER ROUTINE, EXECUTE, CREATE TEMPORARY TABLES, CREATE VIEW, SHOW VIEW, EVENT, TRIGGER ON `s3\\_game`.* ' +
        'TO `u3_AbCdEfGhIj`@`%`',
    );
    expect(mysqlStatements.alterPassword(database, "'pw'")).toBe(
      "ALTER USER `u3_AbCdEfGhIj`@`%` IDENTIFIED BY 'pw'",
    );
    expect(postgresStatements.createRole('u3_AbCdEfGhIj', "'pw'", null)).toBe(
      `CREATE ROLE "u3_AbCdEfGhIj" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD 'pw'`,
    );
    expect(postgresStatements.createDatabase('s3_game', 'u3_AbCdEfGhIj')).toBe(
      'CREATE DATABASE "s3_game" OWNER "u3_AbCdEfGhIj"',
    );
  });
});

describe.skipIf(skipWithoutHosts)('drivers on real database servers', () => {
  it.each(testHostUrls.map((url) => [url.protocol, url]))(
    '%s: creates a database its user can use, rotates the password (the old one refused), drops both',
    async (_name, url) => {
      const host = credentialsOf(url);
      const driver = serverDatabaseDriverFor(host.driver);
      const db = target('%');
      await driver.create(host, db);
      try {
        expect(await hostHas(host, db)).toEqual({ database: true, user: true });
        await connectAs(host, db);

        const next = password();
        await driver.rotatePassword(host, db, next);
        await expect(connectAs(host, db)).rejects.toThrow();
        await connectAs(host, { ...db, password: next });
      } finally {
        await driver.drop(host, db);
      }
      expect(await hostHas(host, db)).toEqual({ database: false, user: false });
      // Dropping again is fine (IF EXISTS).
      await driver.drop(host, db);
    },
  );

  it.each(testHostUrls.map((url) => [url.protocol, url]))(
    '%s: keeps other users out of the database, and the user out of other databases',
    async (_name, url) => {
      const host = credentialsOf(url);
      const driver = serverDatabaseDriverFor(host.driver);
      const [mine, other] = [target(), target()];
      await driver.create(host, mine);
      await driver.create(host, other);
      try {
        await expect(connectAs(host, { ...mine, database: other.database })).rejects.toThrow();
      } finally {
        await driver.drop(host, mine);
        await driver.drop(host, other);
      }
    },
  );

  it.each(testHostUrls.map((url) => [url.protocol, url]))(
    '%s: a create that fails midway leaves nothing behind, and never drops what existed before',
    async (_name, url) => {
      const host = credentialsOf(url);
      const driver = serverDatabaseDriverFor(host.driver);
      // The user exists already: the database made first is dropped again.
      const first = target();
      await driver.create(host, first);
      const clash = { ...target(), username: first.username, remote: first.remote };
      await expect(driver.create(host, clash)).rejects.toThrow();
      expect((await hostHas(host, clash)).database).toBe(false);
      // The database exists already: it, and its user, stay.
      const sameName = { ...target(), database: first.database };
      await expect(driver.create(host, sameName)).rejects.toThrow();
      expect(await hostHas(host, first)).toEqual({ database: true, user: true });
      expect((await hostHas(host, sameName)).user).toBe(false);
      await connectAs(host, first);
      await driver.drop(host, first);
    },
  );

  it.each(testHostUrls.map((url) => [url.protocol, url]))(
    '%s: refuses hostile names before connecting, and stores a password with every special character',
    async (_name, url) => {
      const host = credentialsOf(url);
      const driver = serverDatabaseDriverFor(host.driver);
      const before = await adminQuery(
        host,
        host.driver === 'postgres'
          ? 'SELECT count(*) AS n FROM pg_database'
          : 'SELECT count(*) AS n FROM information_schema.schemata',
      );
      for (const database of ['s1_x`; DROP DATABASE mysql; --', 's1_x"; DROP DATABASE postgres; --']) {
        await expect(driver.create(host, { ...target(), database })).rejects.toThrow(UnsafeIdentifierError);
        await expect(driver.drop(host, { ...target(), database })).rejects.toThrow(UnsafeIdentifierError);
      }
      await expect(driver.create(host, { ...target(), remote: "%' IDENTIFIED BY 'x" })).rejects.toThrow(
        UnsafeIdentifierError,
      );
      await expect(
        driver.create(host, { ...target(), password: "x'; DROP USER aerie; --" }),
      ).rejects.toThrow();
      const after = await adminQuery(
        host,
        host.driver === 'postgres'
          ? 'SELECT count(*) AS n FROM pg_database'
          : 'SELECT count(*) AS n FROM information_schema.schemata',
      );
      expect(Number(after[0]?.n)).toBe(Number(before[0]?.n));

      // A name the rules allow that looks like SQL is just a name.
      const tricky = { ...target(), database: `s9_--${randomPart()}-_` };
      tricky.password = `Aa1!@=.+^${randomPart(12)}`;
      await driver.create(host, tricky);
      await connectAs(host, tricky);
      await driver.drop(host, tricky);
      expect(await hostHas(host, tricky)).toEqual({ database: false, user: false });
    },
  );
});

describe('drivers without a server to reach', () => {
  it.each(['mysql', 'postgres'] as const)('%s: a closed port fails clearly', async (driverName) => {
    const port = await closedPort();
    const host = { driver: driverName, host: '127.0.0.1', port, username: 'x', password: 'x' };
    await expect(serverDatabaseDriverFor(driverName).create(host, target())).rejects.toThrow(/ECONNREFUSED/);
  });
});
