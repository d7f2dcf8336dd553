import { loadConfig } from '@aerie/panel/config/load-config';
import { randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import { createUser } from '@aerie/panel/features/users/create-user';
import { CliError } from './cli-error';
import { parseFlags } from './parse-flags';
import { prepare } from './prepare';

/** `aerie user:create --email E --username U [--password P] [--admin]` (a generated password is printed once). */
export async function userCreate(argv: string[]): Promise<void> {
  const { values, booleans } = parseFlags(argv, {
    values: ['email', 'username', 'password'],
    booleans: ['admin'],
  });
  const missing = ['email', 'username'].filter((name) => !values[name]);
  if (missing.length > 0) throw new CliError(`Missing ${missing.map((name) => `--${name}`).join(' and ')}.`);
  const config = loadConfig();
  const { db } = await prepare(config, { migrate: true });
  try {
    const password = values.password ?? randomAlphanumeric(20);
    const user = await createUser(db, {
      email: values.email as string,
      username: values.username as string,
      password,
      rootAdmin: booleans.has('admin'),
    });
    console.log(`Created ${user.rootAdmin ? 'root admin' : 'user'} "${user.username}" <${user.email}>.`);
    if (!values.password) console.log(`Generated password (shown only this once): ${password}`);
  } finally {
    await db.destroy();
  }
}
