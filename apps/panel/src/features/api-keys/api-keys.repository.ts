import type { Db } from '@aerie/panel/db/database';
import { readCount } from '@aerie/panel/db/dialect';
import type { UsersTable } from '@aerie/panel/db/schema';
import type { ApiKeysTable, ApiKeyType } from '@aerie/panel/db/schema-account';
import { toUser, type User } from '@aerie/panel/features/users/user';
import { adminResources, type ResourceAccess } from '@aerie/shared/api-keys/application-keys-wire';
import type { Selectable } from 'kysely';
import { type ApiKey, toApiKey } from './api-key';

/** SQL for the api_keys table. */

/** The api_keys columns, read beside the owner's in one query (the client and application surfaces' hot path). */
const KEY_COLUMNS = [
  'id',
  'user_id',
  'key_type',
  'identifier',
  'token',
  'allowed_ips',
  'memo',
  'last_used_at',
  'created_at',
  'updated_at',
  ...adminResources.map((resource) => `r_${resource}` as const),
] as const;

/** The key with this identifier and its owner, in one query; null when unknown. */
export async function findKeyWithUser(
  db: Db,
  identifier: string,
): Promise<{ key: ApiKey; user: User } | null> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select(KEY_COLUMNS.map((column) => `api_keys.${column} as key_${column}` as const))
    .where('api_keys.identifier', '=', identifier)
    .executeTakeFirst();
  if (!row) return null;
  const record = row as unknown as Record<string, unknown>;
  const key = Object.fromEntries(KEY_COLUMNS.map((column) => [column, record[`key_${column}`]]));
  const user = Object.fromEntries(Object.entries(record).filter(([name]) => !name.startsWith('key_')));
  return {
    key: toApiKey(key as unknown as Selectable<ApiKeysTable>),
    user: toUser(user as unknown as Selectable<UsersTable>),
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
