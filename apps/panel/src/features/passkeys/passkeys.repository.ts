import { sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { readCount } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import { type Passkey, toPasskey } from './passkey';

/** SQL for the user_passkeys table. A credential is found by the SHA-256 of its id (see migration 0017). */

export const credentialHash = (credentialId: string) => sha256(credentialId);

export async function listPasskeys(db: Db | Tx, userId: number): Promise<Passkey[]> {
  const rows = await db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toPasskey);
}

export async function countPasskeys(db: Db | Tx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_passkeys')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return readCount(row?.count);
}

export async function findPasskeyByCredential(db: Db | Tx, credentialId: string): Promise<Passkey | null> {
  const row = await db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('credential_hash', '=', credentialHash(credentialId))
    .executeTakeFirst();
  return row ? toPasskey(row) : null;
}

export async function findOwnPasskey(db: Db | Tx, userId: number, id: number): Promise<Passkey | null> {
  const row = await db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toPasskey(row) : null;
}

export async function hasPasskeyNamed(
  db: Db | Tx,
  userId: number,
  name: string,
  exceptId: number | null = null,
): Promise<boolean> {
  let query = db
    .selectFrom('user_passkeys')
    .select('id')
    .where('user_id', '=', userId)
    .where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertPasskey(
  tx: Tx,
  passkey: Omit<Passkey, 'id' | 'createdAt' | 'lastUsedAt'>,
  now: Date,
): Promise<Passkey> {
  const id = await insertReturningId(
    tx,
    tx.insertInto('user_passkeys').values({
      user_id: passkey.userId,
      name: passkey.name,
      credential_hash: credentialHash(passkey.credentialId),
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: JSON.stringify(passkey.transports),
      backed_up: passkey.backedUp,
      created_at: now,
      last_used_at: null,
    }),
  );
  const row = await tx.selectFrom('user_passkeys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return toPasskey(row);
}

export async function renamePasskey(tx: Tx, id: number, name: string): Promise<void> {
  await tx.updateTable('user_passkeys').set({ name }).where('id', '=', id).execute();
}

/**
 * Stores a sign-in's counter, only moving it forward: of two sign-ins verified at once against the same stored
 * counter, the later write cannot take it back.
 * @returns false when the counter had already reached `counter` (a replayed or cloned authenticator's answer)
 */
export async function recordPasskeyUse(
  db: Db | Tx,
  passkey: Passkey,
  counter: number,
  now: Date,
): Promise<boolean> {
  let query = db
    .updateTable('user_passkeys')
    .set({ counter, last_used_at: now })
    .where('id', '=', passkey.id);
  // Authenticators that keep no counter always send 0; theirs is never compared.
  if (counter !== 0 || passkey.counter !== 0) query = query.where('counter', '<', counter);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deletePasskey(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('user_passkeys').where('id', '=', id).execute();
}
