import type { Db } from '@aerie/panel/db/database';
import { readCount } from '@aerie/panel/db/dialect';
import type { ApiKeyType } from '@aerie/panel/db/schema-account';
import { toUser, type User } from '@aerie/panel/features/users/user';
import { type ApiKey, toApiKey } from './api-key';

/** SQL for the api_keys table. */

/** The key with this identifier and its owner, in one query; null when unknown. */
export async function findKeyWithUser(
  db: Db,
  identifier: string,
): Promise<{ key: ApiKey; user: User } | null> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select([
      'api_keys.id as key_id',
      'api_keys.user_id as key_user_id',
      'api_keys.key_type as key_key_type',
      'api_keys.identifier as key_identifier',
      'api_keys.token as key_token',
      'api_keys.allowed_ips as key_allowed_ips',
      'api_keys.memo as key_memo',
      'api_keys.last_used_at as key_last_used_at',
      'api_keys.created_at as key_created_at',
      'api_keys.updated_at as key_updated_at',
    ])
    .where('api_keys.identifier', '=', identifier)
    .executeTakeFirst();
  if (!row) return null;
  const {
    key_id,
    key_user_id,
    key_key_type,
    key_identifier,
    key_token,
    key_allowed_ips,
    key_memo,
    key_last_used_at,
    key_created_at,
    key_updated_at,
    ...userColumns
  } = row;
  return {
    key: toApiKey({
      id: key_id,
      user_id: key_user_id,
      key_type: key_key_type,
      identifier: key_identifier,
      token: key_token,
      allowed_ips: key_allowed_ips,
      memo: key_memo,
      last_used_at: key_last_used_at,
      created_at: key_created_at,
      updated_at: key_updated_at,
    }),
    user: toUser(userColumns),
  };
}

export async function listKeys(db: Db, userId: number, keyType: ApiKeyType): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key_type', '=', keyType)
    .orderBy('id')
    .execute();
  return rows.map(toApiKey);
}

export async function countKeys(db: Db, userId: number, keyType: ApiKeyType): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId)
    .where('key_type', '=', keyType)
    .executeTakeFirst();
  return readCount(row?.count);
}

export interface NewApiKey {
  userId: number;
  keyType: ApiKeyType;
  identifier: string;
  tokenHash: string;
  description: string;
  allowedIps: string[];
}

export async function insertKey(db: Db, key: NewApiKey, now: Date): Promise<ApiKey> {
  await db
    .insertInto('api_keys')
    .values({
      user_id: key.userId,
      key_type: key.keyType,
      identifier: key.identifier,
      token: key.tokenHash,
      allowed_ips: JSON.stringify(key.allowedIps),
      memo: key.description,
      last_used_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('identifier', '=', key.identifier)
    .executeTakeFirstOrThrow();
  return toApiKey(row);
}

/** @returns whether a key was deleted (only the user's own key of that type can be). */
export async function deleteKey(
  db: Db,
  userId: number,
  keyType: ApiKeyType,
  identifier: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('user_id', '=', userId)
    .where('key_type', '=', keyType)
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function touchKey(db: Db, id: number, now: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}
