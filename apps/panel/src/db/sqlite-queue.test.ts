import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { QueuedSqliteDialect } from './sqlite-queue';
import { sqliteForKysely } from './sqlite-statements';

interface Tables {
  counter: { id: number; value: number };
  seen: { id: number; value: number };
}

let db: Kysely<Tables> | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

async function open() {
  db = new Kysely<Tables>({
    dialect: new QueuedSqliteDialect({ database: sqliteForKysely(new SQLite(':memory:')) }),
  });
  await sql`create table counter (id integer primary key, value integer not null)`.execute(db);
  await sql`create table seen (id integer primary key, value integer not null)`.execute(db);
  await db.insertInto('counter').values({ id: 1, value: 0 }).execute();
  return db;
}

describe('QueuedSqliteDialect', () => {
  it('runs queries asked at once in the order asked, every one of them', async () => {
    const made = await open();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 2000 }, async (_, index) => {
        await made.selectFrom('counter').select('value').where('id', '=', 1).execute();
        order.push(index);
      }),
    );
    expect(order).toEqual(Array.from({ length: 2000 }, (_, index) => index));
  });

  it('keeps a transaction to itself while it awaits between its queries: nothing asked meanwhile runs inside it', async () => {
    const made = await open();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = made.transaction().execute(async (tx) => {
      await tx.updateTable('counter').set({ value: 1 }).where('id', '=', 1).execute();
      await held;
      await tx.updateTable('counter').set({ value: 2 }).where('id', '=', 1).execute();
      throw new Error('rolled back');
    });
    // Asked while the transaction waits: each must see the value from before it or after it, never its middle.
    const readers = Array.from({ length: 50 }, async (_, id) => {
      const row = await made
        .selectFrom('counter')
        .select('value')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      await made.insertInto('seen').values({ id, value: row.value }).execute();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await Promise.all(readers);
    const seen = await made.selectFrom('seen').select('value').execute();
    expect(seen).toHaveLength(50);
    expect(seen.every((row) => row.value === 0)).toBe(true);
    expect(
      (await made.selectFrom('counter').select('value').where('id', '=', 1).executeTakeFirstOrThrow()).value,
    ).toBe(0);
  });

  it('gives the connection on after a failing query', async () => {
    const made = await open();
    const results = await Promise.allSettled([
      sql`select * from missing_table`.execute(made),
      made.selectFrom('counter').select('value').execute(),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
  });

  it("begins a transaction with the write lock, so a write after its reads never meets another process's commit", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'aerie-sqlite-queue-'));
    const file = path.join(directory, 'panel.sqlite');
    const panel = new SQLite(file);
    panel.pragma('journal_mode = WAL');
    db = new Kysely<Tables>({
      dialect: new QueuedSqliteDialect({ database: sqliteForKysely(new SQLite(file)) }),
    });
    await sql`create table counter (id integer primary key, value integer not null)`.execute(db);
    await db.insertInto('counter').values({ id: 1, value: 0 }).execute();
    // The other process: it does not wait, so a lock it meets shows as an error here.
    panel.pragma('busy_timeout = 0');
    const otherWrites: string[] = [];
    try {
      await db.transaction().execute(async (tx) => {
        const { value } = await tx
          .selectFrom('counter')
          .select('value')
          .where('id', '=', 1)
          .executeTakeFirstOrThrow();
        try {
          panel.prepare('update counter set value = value + 100 where id = 1').run();
          otherWrites.push('written');
        } catch (error) {
          otherWrites.push((error as { code?: string }).code ?? String(error));
        }
        await tx
          .updateTable('counter')
          .set({ value: value + 1 })
          .where('id', '=', 1)
          .execute();
      });
      // The other writer waited for the lock (busy_timeout, in a real process) instead of breaking this transaction.
      expect(otherWrites).toEqual(['SQLITE_BUSY']);
      expect(panel.prepare('select value from counter where id = 1').get()).toEqual({ value: 1 });
    } finally {
      panel.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
