import type { Db } from '@aerie/panel/db/database';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import { type SshKey, toSshKey } from './ssh-key';

/** SQL for the user_ssh_keys table. Removed keys (deleted_at set) are never returned. */

export async function listKeys(db: Db, userId: number): Promise<SshKey[]> {
  const rows = await db
    .selectFrom('user_ssh_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map(toSshKey);
}

/** Whether the user holds a key with this fingerprint. */
export async function hasKey(db: Db, userId: number, fingerprint: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_ssh_keys')
    .select('id')
    .where('user_id', '=', userId)
    .where('fingerprint', '=', fingerprint)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertKey(
  db: Db,
  key: { userId: number; name: string; fingerprint: string; publicKey: string },
  now: Date,
): Promise<SshKey> {
  const id = await insertReturningId(
    db,
    db.insertInto('user_ssh_keys').values({
      user_id: key.userId,
      name: key.name,
      fingerprint: key.fingerprint,
      public_key: key.publicKey,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }),
  );
  return toSshKey(
    await db.selectFrom('user_ssh_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
}

/** Marks the user's keys with this fingerprint removed; returns how many were. */
export async function softDeleteKeys(
  db: Db | Tx,
  userId: number,
  fingerprint: string,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('user_ssh_keys')
    .set({ deleted_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('fingerprint', '=', fingerprint)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
