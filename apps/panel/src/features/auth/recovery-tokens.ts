import { keyedHash, randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';

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
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
    await tx
      .insertInto('recovery_tokens')
      .values(tokens.map((token) => ({ user_id: userId, token: keyedHash(appKey, token), created_at: now })))
      .execute();
  });
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
  const result = await db
    .deleteFrom('recovery_tokens')
    .where('user_id', '=', userId)
    .where('token', '=', keyedHash(appKey, token))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
