import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';

/** SQL for what sign-in keeps besides sessions: recovery tokens, known sign-in addresses, password reset tokens. */

/** Replaces a user's recovery tokens with these hashes. */
export async function replaceRecoveryTokens(
  tx: Db | Tx,
  userId: number,
  tokenHashes: string[],
  now: Date,
): Promise<void> {
  await deleteRecoveryTokens(tx, userId);
  await tx
    .insertInto('recovery_tokens')
    .values(tokenHashes.map((token) => ({ user_id: userId, token, created_at: now })))
    .execute();
}

export async function deleteRecoveryTokens(db: Db | Tx, userId: number): Promise<void> {
  await db.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
}

/** @returns whether this call deleted the token (true for one request only) */
export async function deleteRecoveryToken(db: Db | Tx, userId: number, tokenHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('recovery_tokens')
    .where('user_id', '=', userId)
    .where('token', '=', tokenHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the user signed in from one of the address hashes after `since`. */
export async function hasSignInAddress(
  db: Db | Tx,
  userId: number,
  addressHashes: string[],
  since: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom('sign_in_addresses')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('address_hash', 'in', addressHashes)
    .where('last_used_at', '>', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** @returns whether the address was known (and is now touched) */
export async function touchSignInAddress(
  db: Db | Tx,
  userId: number,
  addressHash: string,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .updateTable('sign_in_addresses')
    .set({ last_used_at: now })
    .where('user_id', '=', userId)
    .where('address_hash', '=', addressHash)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** @throws the driver's unique-violation error when the address is known already */
export async function insertSignInAddress(
  db: Db | Tx,
  userId: number,
  addressHash: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('sign_in_addresses')
    .values({ user_id: userId, address_hash: addressHash, last_used_at: now })
    .execute();
}

export async function deleteSignInAddressesUsedBefore(
  db: Db | Tx,
  userId: number,
  before: Date,
): Promise<void> {
  await db
    .deleteFrom('sign_in_addresses')
    .where('user_id', '=', userId)
    .where('last_used_at', '<', before)
    .execute();
}

/** The newest reset token of an address (stored lower-cased, as the caller gives it). */
export function latestPasswordReset(db: Db | Tx, email: string) {
  return db
    .selectFrom('password_resets')
    .select(['token', 'created_at'])
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** @returns how many tokens of the address were deleted */
export async function deletePasswordResets(db: Db | Tx, email: string): Promise<number> {
  const deleted = await db.deleteFrom('password_resets').where('email', '=', email).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

export async function insertPasswordReset(
  db: Db | Tx,
  email: string,
  tokenHash: string,
  now: Date,
): Promise<void> {
  await db.insertInto('password_resets').values({ email, token: tokenHash, created_at: now }).execute();
}
