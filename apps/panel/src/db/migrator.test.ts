import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertUser } from '@aerie/panel/features/users/users.repository';
import { createTestDatabase, type TestDatabase } from '@aerie/panel/test/test-database';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, isUniqueViolation, readBool, readCount, readDate } from './dialect';
import { migrateToLatest, pendingMigrations } from './migrator';

let dataDir: string;
let database: TestDatabase;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-migrate-'));
  database = await createTestDatabase(dataDir);
});
afterAll(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const newUser = (name: string) => ({
  username: name,
  email: `${name}@example.com`,
  passwordHash: 'x',
  rootAdmin: true,
});

describe('migrations', () => {
  it('create every table on a fresh database, then have nothing left to do', async () => {
    // Every migration, in name order (other areas add theirs in between).
    const pending = await pendingMigrations(database.db);
    expect(pending[0]).toBe('0001-users-sessions-auth');
    expect(pending).toContain('0002-account-api-keys-settings');
    expect(pending).toContain('0003-servers');
    expect(pending).toEqual([...pending].sort());
    expect(await migrateToLatest(database.db)).toEqual(pending);
    expect(await pendingMigrations(database.db)).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual([]);
    const tables = (await database.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'recovery_tokens',
        'password_resets',
        'api_keys',
        'settings',
        'admin_audit_log',
        'admin_roles',
        'user_passkeys',
        'oauth_providers',
        'user_oauth_links',
      ]),
    );
    const users = (await database.db.introspection.getTables()).find((table) => table.name === 'users');
    expect(users?.columns.map((column) => column.name)).toEqual([
      'id',
      'uuid',
      'external_id',
      'username',
      'email',
      'name_first',
      'name_last',
      'password',
      'language',
      'root_admin',
      'use_totp',
      'totp_secret',
      'totp_authenticated_at',
      'gravatar',
      'created_at',
      'updated_at',
      'totp_last_step',
      'admin_role_id',
      'has_password',
    ]);
    const transfers = (await database.db.introspection.getTables()).find(
      (table) => table.name === 'server_transfers',
    );
    expect(transfers?.columns.map((column) => [column.name, column.isNullable])).toEqual(
      expect.arrayContaining([
        ['old_node', true],
        ['new_node', true],
        ['old_allocation', true],
        ['new_allocation', true],
        ['old_additional_allocations', true],
        ['new_additional_allocations', true],
        ['failure', true],
      ]),
    );
  });
});

describe(`dialect helpers (${process.env.AERIE_TEST_DATABASE_URL ? 'server database' : 'SQLite'})`, () => {
  it('knows which dialect it talks to', () => {
    const expected = process.env.AERIE_TEST_DATABASE_URL?.startsWith('postgres')
      ? 'postgres'
      : process.env.AERIE_TEST_DATABASE_URL
        ? 'mysql'
        : 'sqlite';
    expect(dialectOf(database.db)).toBe(expected);
  });

  it('round-trips booleans, defaults and timestamps to the millisecond', async () => {
    const now = new Date('2024-05-07T12:55:57.123Z');
    const user = await insertUser(database.db, newUser('roundtrip'), now);
    expect(user).toMatchObject({
      rootAdmin: true,
      useTotp: false,
      gravatar: true,
      language: 'en',
      totpAuthenticatedAt: null,
    });
    expect(user.createdAt.toISOString()).toBe('2024-05-07T12:55:57.123Z');
    const row = await database.db
      .selectFrom('users')
      .select(['root_admin', 'created_at'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(readBool(row.root_admin)).toBe(true);
    expect(readDate(row.created_at).getTime()).toBe(now.getTime());
  });

  it('compares timestamps in SQL the same way on every dialect', async () => {
    const before = new Date('2024-05-07T12:55:57.000Z');
    const count = await database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('created_at', '>', before)
      .where('username', '=', 'roundtrip')
      .executeTakeFirstOrThrow();
    expect(readCount(count.count)).toBe(1);
  });

  it('spots a unique violation from any driver', async () => {
    const error = await insertUser(database.db, newUser('roundtrip'), new Date()).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('enforces the foreign key from sessions to users', async () => {
    const orphan = database.db
      .insertInto('sessions')
      .values({
        id: 'f'.repeat(64),
        user_id: 999_999,
        data: '{}',
        ip_address: null,
        user_agent: null,
        expires_at: new Date(),
        created_at: new Date(),
      })
      .execute();
    await expect(orphan).rejects.toThrow();
    await sql`select 1`.execute(database.db);
  });
});
