import type { Db } from '@aerie/panel/db/database';
import { readCount } from '@aerie/panel/db/dialect';
import type { ApiKeyType } from '@aerie/panel/db/schema-account';
import { toUser, type User } from '@aerie/panel/features/users/user';
import type { ResourceAccess } from '@aerie/shared/api-keys/application-keys-wire';
import { type ApiKey, toApiKey } from './api-key';

/** SQL for the api_keys table. */

/** The key with this identifier and its owner; null when unknown. */
export async function findKeyWithUser(
  db: Db,
  identifier: string,
): Promise<{ key: ApiKey; user: User } | null> {
  const key = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  if (!key) return null;
  const user = await db.selectFrom('users').selectAll().where('id', '=', key.user_id).executeTakeFirst();
  return user ? { key: toApiKey(key), user: toUser(user) } : null;
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
  /** Application keys: access per resource (`r_<resource>` columns). */
  access?: Partial<ResourceAccess>;
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
      ...Object.fromEntries(
        Object.entries(key.access ?? {}).map(([resource, bits]) => [`r_${resource}`, bits]),
      ),
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
