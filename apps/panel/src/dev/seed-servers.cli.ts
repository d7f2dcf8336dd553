// `node --import tsx apps/panel/src/dev/seed-servers.cli.ts --users 1000 --servers 10000 [--owner USERNAME]`:
// fills the configured database (DATA_DIR / DATABASE_URL) for the benchmarks. Not part of the `aerie` command.
import { CliError } from '@aerie/panel/cli/cli-error';
import { parseFlags } from '@aerie/panel/cli/parse-flags';
import { prepare } from '@aerie/panel/cli/prepare';
import { loadConfig } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { seedServers } from './seed-servers';

const { values } = parseFlags(process.argv.slice(2), { values: ['users', 'servers', 'owner'], booleans: [] });
const count = (name: string, fallback: number) => {
  const value = Number(values[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new CliError(`--${name} must be a whole number above 0.`);
  return value;
};
const config = loadConfig();
const { db, appKey } = await prepare(config, { migrate: true });
try {
  const owner = values.owner ? await findUserByLogin(db, values.owner) : null;
  if (values.owner && !owner) throw new CliError(`No user "${values.owner}".`);
  const started = Date.now();
  const seeded = await seedServers(db, new SecretBox(appKey), {
    users: count('users', 1000),
    servers: count('servers', 10_000),
    ...(owner ? { firstOwnerId: owner.id } : {}),
  });
  console.log(
    `Seeded ${seeded.users} users, ${seeded.servers} servers and ${seeded.subusers} subusers in ${Date.now() - started} ms.`,
  );
} finally {
  await db.destroy();
}
