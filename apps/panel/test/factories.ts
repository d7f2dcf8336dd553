import { randomBytes } from 'node:crypto';
import type { AppContext } from '@aerie/panel/app-context';
import { issueRecoveryTokens } from '@aerie/panel/features/auth/recovery-tokens';
import { createUser } from '@aerie/panel/features/users/create-user';
import type { User } from '@aerie/panel/features/users/user';
import { generateSecret } from 'otplib';

let sequence = 0;

/** A user with a known password; names are unique per call. */
export async function createTestUser(
  ctx: AppContext,
  overrides: { username?: string; email?: string; password?: string; rootAdmin?: boolean } = {},
): Promise<{ user: User; password: string }> {
  sequence++;
  const tag = `${sequence}${randomBytes(2).toString('hex')}`;
  const password = overrides.password ?? `password-${tag}`;
  const user = await createUser(ctx.db, {
    username: overrides.username ?? `user${tag}`,
    email: overrides.email ?? `user${tag}@example.com`,
    password,
    rootAdmin: overrides.rootAdmin ?? false,
  });
  return { user, password };
}

/**
 * Turns 2FA on for a user the way the (later) enable endpoint will: a sealed TOTP secret, use_totp, and ten
 * recovery tokens. Returns the plain secret and tokens.
 */
export async function enableTwoFactor(
  ctx: AppContext,
  user: User,
): Promise<{ secret: string; recoveryTokens: string[] }> {
  const secret = generateSecret();
  const now = new Date();
  await ctx.db
    .updateTable('users')
    .set({ use_totp: true, totp_secret: ctx.secretBox.seal(secret), totp_authenticated_at: now })
    .where('id', '=', user.id)
    .execute();
  const recoveryTokens = await issueRecoveryTokens(ctx.db, ctx.appKey, user.id, now);
  return { secret, recoveryTokens };
}
