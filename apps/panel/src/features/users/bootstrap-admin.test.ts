import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import { verifyPassword } from '@aerie/panel/features/auth/password-hash';
import { createTestDatabase, type TestDatabase } from '@aerie/panel/test/test-database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootstrapFirstAdmin } from './bootstrap-admin';
import { countUsers, findUserByLogin } from './users.repository';

let dataDir: string;
let database: TestDatabase;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-bootstrap-'));
  database = await createTestDatabase(dataDir);
  await migrateToLatest(database.db);
});
afterEach(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('first root admin', () => {
  it('is generated with a password printed exactly once', async () => {
    const printed: string[] = [];
    const result = await bootstrapFirstAdmin(database.db, {}, (line) => printed.push(line));
    expect(result).toMatchObject({ created: true, username: 'admin', email: 'admin@example.com' });
    const password = result.generatedPassword as string;
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(printed.filter((line) => line.includes(password))).toHaveLength(1);
    const admin = await findUserByLogin(database.db, 'admin');
    expect(admin?.rootAdmin).toBe(true);
    expect(admin?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin?.passwordHash ?? null, password)).toBe(true);

    // The next boot finds a user and neither creates nor prints anything.
    const again: string[] = [];
    expect(await bootstrapFirstAdmin(database.db, {}, (line) => again.push(line))).toEqual({
      created: false,
    });
    expect(again).toEqual([]);
    expect(await countUsers(database.db)).toBe(1);
  });

  it('uses ADMIN_EMAIL, ADMIN_USERNAME and ADMIN_PASSWORD and prints no secret', async () => {
    const printed: string[] = [];
    const result = await bootstrapFirstAdmin(
      database.db,
      { email: 'root@example.org', username: 'Boss', password: 'correct horse battery' },
      (line) => printed.push(line),
    );
    expect(result).toEqual({
      created: true,
      username: 'Boss',
      email: 'root@example.org',
      generatedPassword: undefined,
    });
    expect(printed.join('\n')).not.toContain('correct horse battery');
    const admin = await findUserByLogin(database.db, 'root@example.org');
    expect(admin).toMatchObject({ username: 'boss', rootAdmin: true });
    expect(await verifyPassword(admin?.passwordHash ?? null, 'correct horse battery')).toBe(true);
  });
});
