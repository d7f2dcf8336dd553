import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { readCount } from '@aerie/panel/db/dialect';
import { toUser, type User } from './user';

/**
 * Usernames and emails are stored lower-cased, so look-ups behave the same on PostgreSQL (case-sensitive)
 * as on MySQL and SQLite.
 */
export const normaliseLogin = (value: string) => value.trim().toLowerCase();

export async function findUserById(db: Db, id: number): Promise<User | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normaliseLogin(email))
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

/** The sign-in field takes a username, or an email when it contains '@'. */
export async function findUserByLogin(db: Db, login: string): Promise<User | null> {
  const column = login.includes('@') ? 'email' : 'username';
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', normaliseLogin(login))
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  return readCount(row?.count);
}

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  rootAdmin: boolean;
  nameFirst?: string | null;
  nameLast?: string | null;
}

/** @throws the driver's unique-violation error when the username or email is taken (see isUniqueViolation). */
export async function insertUser(db: Db, user: NewUser, now: Date): Promise<User> {
  const uuid = randomUUID();
  await db
    .insertInto('users')
    .values({
      uuid,
      external_id: null,
      username: normaliseLogin(user.username),
      email: normaliseLogin(user.email),
      name_first: user.nameFirst ?? null,
      name_last: user.nameLast ?? null,
      password: user.passwordHash,
      root_admin: user.rootAdmin,
      use_totp: false,
      gravatar: true,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const row = await db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return toUser(row);
}

export async function updatePasswordHash(
  db: Db,
  userId: number,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
