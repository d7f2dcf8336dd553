import { keyedHash, randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { deleteRecoveryToken, deleteRecoveryTokens, replaceRecoveryTokens } from './auth.repository';

export const RECOVERY_TOKEN_COUNT = 10;

/**
 * Replaces a user's recovery tokens with 10 new ones (10 letters/digits each) and returns them in plain text,
 * the only time they are seen; the table keeps HMACs under the app key.
 */
export async function issueRecoveryTokens(
  db: Db,
  appKey: Buffer,
  userId: number,
  now: Date,
): Promise<string[]> {
  const tokens = Array.from({ length: RECOVERY_TOKEN_COUNT }, () => randomAlphanumeric(10));
  await db.transaction().execute((tx) =>
    replaceRecoveryTokens(
      tx,
      userId,
      tokens.map((token) => keyedHash(appKey, token)),
      now,
    ),
  );
  return tokens;
}

/**
 * Uses up a recovery token: true only for the one request that deletes it, so it works once even when two
 * requests race with the same token.
 */
export async function consumeRecoveryToken(
  db: Db,
  appKey: Buffer,
  userId: number,
  token: string,
): Promise<boolean> {
  return deleteRecoveryToken(db, userId, keyedHash(appKey, token));
}

/** Deletes every recovery token of a user (2FA turned off), in the caller's transaction. */
export function forgetRecoveryTokens(tx: Db | Tx, userId: number): Promise<void> {
  return deleteRecoveryTokens(tx, userId);
}
