import type { Config } from '@aerie/panel/config/load-config';
import { randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { createUser, UserInputError } from './create-user';
import { countUsers } from './users.repository';

export interface BootstrapResult {
  created: boolean;
  username?: string;
  email?: string;
  /** Set only when the password was generated here; it is printed once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * Creates the first root admin when the panel has no user at all, from ADMIN_* or generated values.
 * A generated password is printed once through `print`; with ADMIN_PASSWORD set nothing secret is printed.
 */
export async function bootstrapFirstAdmin(
  db: Db,
  admin: Config['admin'],
  print: (line: string) => void,
): Promise<BootstrapResult> {
  if ((await countUsers(db)) > 0) return { created: false };
  const username = admin.username ?? 'admin';
  const email = admin.email ?? 'admin@example.com';
  const generatedPassword = admin.password ? undefined : randomAlphanumeric(20);
  try {
    await createUser(db, {
      username,
      email,
      password: admin.password ?? (generatedPassword as string),
      rootAdmin: true,
    });
  } catch (error) {
    // Another process created a user at the same moment: it is not the first admin's bootstrap any more.
    if (error instanceof UserInputError && (await countUsers(db)) > 0) return { created: false };
    throw error;
  }
  print(`Created the first root admin: username "${username}", email "${email}".`);
  if (generatedPassword) {
    print(`Its generated password (shown only this once, write it down): ${generatedPassword}`);
  }
  return { created: true, username, email, generatedPassword };
}
