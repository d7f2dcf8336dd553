import { randomInt } from 'node:crypto';
import { randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { Tx } from '@aerie/panel/db/transaction';
import { hashPassword } from '@aerie/panel/features/auth/password-hash';
import type { User } from '@aerie/panel/features/users/user';
import { usernameTaken } from '@aerie/panel/features/users/user-lookups';
import { insertUser } from '@aerie/panel/features/users/user-writes';

const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The username of an account made for an invited email, as upstream makes it: the part before the `@` without
 * anything outside letters, digits, `_`, `.` and `-`, cut to 64, then 3 random characters. Lowercased, and
 * without leading punctuation, so it passes the panel's own username rule (upstream's fails on `.bob@…`).
 */
export function invitedUsername(email: string): string {
  const local = (email.split('@')[0] ?? '')
    .replace(/[^\w.-]+/g, '')
    .toLowerCase()
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
  const suffix = Array.from({ length: 3 }, () => LOWER_ALPHANUMERIC[randomInt(LOWER_ALPHANUMERIC.length)]);
  return local + suffix.join('');
}

/** A username for the email that no account has yet (a few tries; the insert's unique index has the last word). */
async function freeUsername(tx: Tx, email: string): Promise<string> {
  let candidate = invitedUsername(email);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await usernameTaken(tx, candidate))) break;
    candidate = invitedUsername(email);
  }
  return candidate;
}

/** A password nobody is told: the account's owner chooses their own through the mailed link. */
export const unusablePasswordHash = () => hashPassword(randomAlphanumeric(30));

/**
 * Makes the account of an invited email (first and last name "Server" "Subuser", as upstream names them).
 * @throws the driver's unique violation when another request made an account for the email first
 */
export async function createInvitedUser(
  tx: Tx,
  email: string,
  passwordHash: string,
  now: Date,
): Promise<User> {
  return insertUser(
    tx,
    {
      username: await freeUsername(tx, email),
      email,
      passwordHash,
      rootAdmin: false,
      nameFirst: 'Server',
      nameLast: 'Subuser',
    },
    now,
  );
}
