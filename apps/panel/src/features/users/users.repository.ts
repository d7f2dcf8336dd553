import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readCount } from '@aerie/panel/db/dialect';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
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

/** GET /api/application/users: partial filters and sorts of the reference (§2.4). */
export const userListSpec = {
  filters: {
    email: { column: 'users.email' },
    uuid: { column: 'users.uuid' },
    username: { column: 'users.username' },
    external_id: { column: 'users.external_id' },
  },
  sorts: { id: 'users.id', uuid: 'users.uuid' },
} as const;

export async function listUsers(db: Db, list: ListQuery) {
  const { rows, total } = await runList(dialectOf(db), db.selectFrom('users').selectAll(), list, 'users.id');
  return { rows: rows.map(toUser), total };
}

/** The user whose external id is exactly `externalId`. */
export async function findUserByExternalId(db: Db, externalId: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

/** Users by id, for includes (`server` → `user`). */
export async function findUsers(db: Db, ids: number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  return rows.map(toUser);
}

/**
 * Which of the unique values belong to a user other than `exceptId`: `email` and `username` compared as stored
 * (lower-cased), `external_id` exactly.
 */
export async function takenUserFields(
  db: Db,
  values: { email: string; username: string; externalId: string | null },
  exceptId?: number,
): Promise<Set<'email' | 'username' | 'external_id'>> {
  const rows = await db
    .selectFrom('users')
    .select(['email', 'username', 'external_id'])
    .where((eb) =>
      eb.or([
        eb('email', '=', normaliseLogin(values.email)),
        eb('username', '=', normaliseLogin(values.username)),
        ...(values.externalId === null ? [] : [eb('external_id', '=', values.externalId)]),
      ]),
    )
    .$if(exceptId !== undefined, (query) => query.where('id', '<>', exceptId as number))
    .execute();
  const taken = new Set<'email' | 'username' | 'external_id'>();
  for (const row of rows) {
    if (row.email === normaliseLogin(values.email)) taken.add('email');
    if (row.username === normaliseLogin(values.username)) taken.add('username');
    if (values.externalId !== null && row.external_id === values.externalId) taken.add('external_id');
  }
  return taken;
}
