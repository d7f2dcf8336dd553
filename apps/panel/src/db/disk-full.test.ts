import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createTestDatabase, type TestDatabase } from '@aerie/panel/test/test-database';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from './dialect';
import { isDiskFull } from './disk-full';

/** The error better-sqlite3 throws when the database cannot grow: a real one, from a capped in-memory file. */
function realSqliteFull(): unknown {
  const sqlite = new SQLite(':memory:');
  try {
    sqlite.exec('create table t (data blob)');
    sqlite.pragma('max_page_count = 8');
    const insert = sqlite.prepare('insert into t values (zeroblob(4096))');
    for (let i = 0; i < 100; i++) insert.run();
    throw new Error('the capped database took everything');
  } catch (error) {
    return error;
  } finally {
    sqlite.close();
  }
}

/** What pg throws for a server error: a DatabaseError with the SQLSTATE in `code` (as pg-protocol fills it). */
function pgError(code: string, message: string): unknown {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'ERROR';
  return error;
}

/** What mysql2 throws for a server error (Packet.asError): an Error with the name, number and SQLSTATE. */
function mysqlError(code: string, errno: number, message: string): unknown {
  return Object.assign(new Error(message), { code, errno, sqlState: 'HY000', sqlMessage: message });
}

function realNodeEnospc(): unknown {
  try {
    writeFileSync('/dev/full', 'x');
  } catch (error) {
    return error;
  }
  throw new Error('/dev/full took a write');
}

describe('isDiskFull', () => {
  it('knows SQLite out of space, including the I/O errors SQLite reports for a full disk', () => {
    const full = realSqliteFull();
    expect((full as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isDiskFull(full)).toBe(true);
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_SHMSIZE']) {
      expect(isDiskFull(new SQLite.SqliteError('disk I/O error', code)), code).toBe(true);
    }
    expect(isDiskFull(new SQLite.SqliteError('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'))).toBe(
      false,
    );
    expect(isDiskFull(new SQLite.SqliteError('database is locked', 'SQLITE_BUSY'))).toBe(false);
  });

  it("knows PostgreSQL's disk_full (53100) and nothing else", () => {
    // The text PostgreSQL 15 answered with its tablespace on a full tmpfs.
    const full = pgError('53100', 'could not extend file "base/16384/16385": No space left on device');
    expect(isDiskFull(full)).toBe(true);
    expect(isDiskFull(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDiskFull(pgError('53200', 'out of memory'))).toBe(false);
    expect(isDiskFull(pgError('57014', 'canceling statement due to statement timeout'))).toBe(false);
  });

  it('knows MySQL/MariaDB disk full, a table that cannot grow, and errno 28 in their texts', () => {
    // MariaDB 10.11 answered 1114 with an InnoDB table on a full ext4 file system.
    expect(isDiskFull(mysqlError('ER_RECORD_FILE_FULL', 1114, "The table 't' is full"))).toBe(true);
    expect(isDiskFull(mysqlError('ER_DISK_FULL', 1021, 'Disk full (/tmp/#sql_1.MAI); waiting …'))).toBe(true);
    const engine = 'Got error 28 "No space left on device" from storage engine InnoDB';
    expect(isDiskFull(mysqlError('ER_GET_ERRNO', 1030, engine))).toBe(true);
    const write = 'Error writing file \'./aerie/sessions.ibd\' (Errcode: 28 "No space left on device")';
    expect(isDiskFull(mysqlError('ER_ERROR_ON_WRITE', 1026, write))).toBe(true);
    expect(isDiskFull(mysqlError('EE_WRITE', 3, write))).toBe(true);

    expect(isDiskFull(mysqlError('ER_DUP_ENTRY', 1062, "Duplicate entry 'a' for key 'email'"))).toBe(false);
    expect(isDiskFull(mysqlError('ER_GET_ERRNO', 1030, 'Got error 1 "Operation not permitted"'))).toBe(false);
    expect(isDiskFull(mysqlError('ER_LOCK_DEADLOCK', 1213, 'Deadlock found'))).toBe(false);
  });

  it("knows Node's own ENOSPC, also as the cause of another error", () => {
    const enospc = realNodeEnospc();
    expect((enospc as { code?: string }).code).toBe('ENOSPC');
    expect(isDiskFull(enospc)).toBe(true);
    expect(isDiskFull(new Error('could not save', { cause: enospc }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('no such file'), { code: 'ENOENT', errno: -2 }))).toBe(false);
    expect(isDiskFull(new Error('boom'))).toBe(false);
    expect(isDiskFull(undefined)).toBe(false);
    expect(isDiskFull('SQLITE_FULL')).toBe(false);
  });
});

// A MEMORY table past max_heap_table_size answers the same 1114 an InnoDB table on a full disk does.
describe.runIf(/^(mysql|mariadb):/.test(process.env.AERIE_TEST_DATABASE_URL ?? ''))(
  'isDiskFull on the MySQL/MariaDB server under test',
  () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(tmpdir());
    });
    afterAll(() => database.drop());

    it('takes its real "table is full" error', async () => {
      expect(dialectOf(database.db)).toBe('mysql');
      const error = await database.db.connection().execute(async (connection) => {
        await sql`set session max_heap_table_size = 16384`.execute(connection);
        await sql`create temporary table heap_probe (data varchar(255)) engine = memory`.execute(connection);
        try {
          for (let i = 0; i < 10_000; i++) {
            await sql`insert into heap_probe values (repeat('x', 255))`.execute(connection);
          }
          return undefined;
        } catch (caught) {
          return caught;
        } finally {
          await sql`drop temporary table heap_probe`.execute(connection);
        }
      });
      expect((error as { errno?: number }).errno).toBe(1114);
      expect(isDiskFull(error)).toBe(true);
    });
  },
);
