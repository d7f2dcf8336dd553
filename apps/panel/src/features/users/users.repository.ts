import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readCount } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
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
  /** False for an account a sign-in provider creates: it has no password anyone knows. */
  hasPassword?: boolean;
}

/** @throws the driver's unique-violation error when the username or email is taken (see isUniqueViolation). */
export async function insertUser(db: Db | Tx, user: NewUser, now: Date): Promise<User> {
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
      has_password: user.hasPassword ?? true,
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
    // A password set (a reset, a change) is one the account can sign in with from now on.
    .set({ password: passwordHash, has_password: true, updated_at: now })
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

/** The user with this username (usernames are stored lower-cased: any case matches, as on Pterodactyl's MySQL). */
export async function findUserByUsername(db: Db | Tx, username: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', normaliseLogin(username))
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

/** Whether an account has exactly this (stored, lower-cased) username. */
export async function usernameTaken(db: Db | Tx, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

/** Whether an account other than `exceptId` has this email (compared as stored, lower-cased). */
export async function emailTakenByOther(db: Db | Tx, email: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', normaliseLogin(email))
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** @throws the driver's unique-violation error when another account has the email */
export async function updateEmail(db: Db | Tx, userId: number, email: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ email: normaliseLogin(email), updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** The language the user reads the panel and their mail in (one of the shipped languages; the caller checks). */
export async function updateLanguage(
  db: Db | Tx,
  userId: number,
  language: string,
  now: Date,
): Promise<void> {
  await db.updateTable('users').set({ language, updated_at: now }).where('id', '=', userId).execute();
}

/** Stores a new sealed TOTP secret (not enabled yet); a new secret has no used codes, so the replay memory resets. */
export async function storePendingTotpSecret(
  db: Db | Tx,
  userId: number,
  sealedSecret: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: sealedSecret, totp_last_step: null })
    .where('id', '=', userId)
    .execute();
}

export async function enableTotp(db: Db | Tx, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ use_totp: true, totp_authenticated_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Turns TOTP off and forgets the secret. */
export async function disableTotp(db: Db | Tx, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ use_totp: false, totp_secret: null, totp_authenticated_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/**
 * Records `step` as the user's last accepted TOTP step unless that step or a later one was accepted already.
 * @returns true for the one request that recorded it
 */
export async function claimTotpStep(db: Db | Tx, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** An Application API user's row as written (username and email already lower-cased by the caller). */
export interface UserRowValues {
  email: string;
  username: string;
  nameFirst: string;
  nameLast: string;
  externalId?: string | null;
  language?: string;
  rootAdmin?: boolean;
  passwordHash?: string;
}

/**
 * Inserts an Application API user (language `en` and not an admin unless given).
 * @returns the new id
 * @throws the driver's unique-violation error when the username, email or external id is taken
 */
export function insertApplicationUser(
  db: Db | Tx,
  values: UserRowValues & { passwordHash: string },
  now: Date,
): Promise<number> {
  return insertReturningId(
    db,
    db.insertInto('users').values({
      uuid: randomUUID(),
      external_id: values.externalId ?? null,
      username: values.username,
      email: values.email,
      name_first: values.nameFirst,
      name_last: values.nameLast,
      password: values.passwordHash,
      language: values.language ?? 'en',
      root_admin: values.rootAdmin ?? false,
      use_totp: false,
      gravatar: true,
      created_at: now,
      updated_at: now,
    }),
  );
}

/**
 * Writes the given fields of a user; `externalId`, `language`, `rootAdmin` and `passwordHash` only when present.
 * @returns whether the user exists
 * @throws the driver's unique-violation error when the username, email or external id is taken
 */
export async function updateApplicationUser(
  db: Db | Tx,
  id: number,
  values: UserRowValues,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      email: values.email,
      username: values.username,
      name_first: values.nameFirst,
      name_last: values.nameLast,
      ...(values.externalId === undefined ? {} : { external_id: values.externalId }),
      ...(values.language === undefined ? {} : { language: values.language }),
      ...(values.rootAdmin === undefined ? {} : { root_admin: values.rootAdmin }),
      ...(values.passwordHash === undefined ? {} : { password: values.passwordHash }),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The user, its row locked until the transaction ends (PostgreSQL/MySQL; SQLite has one writer). */
export async function lockUser(tx: Tx, id: number): Promise<User | null> {
  const row = await tx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .$if(dialectOf(tx) !== 'sqlite', (query) => query.forUpdate())
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function ownsAnyServer(db: Db | Tx, userId: number): Promise<boolean> {
  const owned = await db
    .selectFrom('servers')
    .select('id')
    .where('owner_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return owned !== undefined;
}

/** Deletes the user and the password reset tokens of its email (sessions, keys and subuser rows go by cascade). */
export async function deleteUserAndResets(tx: Db | Tx, user: Pick<User, 'id' | 'email'>): Promise<void> {
  await tx.deleteFrom('password_resets').where('email', '=', user.email).execute();
  await tx.deleteFrom('users').where('id', '=', user.id).execute();
}

/** The ids of the users with these uuids (as stored, lower-cased), with their uuids. */
export function findUserIdsByUuid(db: Db | Tx, uuids: string[]) {
  return db.selectFrom('users').select(['id', 'uuid']).where('uuid', 'in', uuids).execute();
}

/**
 * Locks the user's row until the transaction ends, so one account's changes that count its rows (API keys, SSH
 * keys) run one after another. SQLite runs one transaction at a time anyway (and has no FOR UPDATE).
 */
export async function lockUserRow(tx: Tx, userId: number): Promise<void> {
  if (dialectOf(tx) !== 'sqlite') {
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }
}
