import { loadConfig } from '@aerie/panel/config/load-config';
import { ApiKeyService } from '@aerie/panel/features/api-keys/api-keys.service';
import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { type AdminResource, adminResources } from '@aerie/shared/api-keys/application-keys-wire';
import { CliError } from './cli-error';
import { parseFlags } from './parse-flags';
import { prepare } from './prepare';

const LEVELS: Record<string, number> = { none: 0, r: 1, read: 1, rw: 3, write: 3 };

/** `servers=rw,nodes=r` → access per resource; every resource read+write when not given. */
export function parseAccess(text: string | undefined): Record<AdminResource, number> {
  const access = Object.fromEntries(adminResources.map((resource) => [resource, text ? 0 : 3])) as Record<
    AdminResource,
    number
  >;
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [resource = '', level = ''] = part.split('=').map((piece) => piece.trim());
    if (!(adminResources as readonly string[]).includes(resource)) {
      throw new CliError(
        `Unknown resource "${resource}" in --access (one of: ${adminResources.join(', ')}).`,
      );
    }
    const bits = LEVELS[level];
    if (bits === undefined) throw new CliError(`Unknown access "${level}" for ${resource} (none, r or rw).`);
    access[resource as AdminResource] = bits;
  }
  return access;
}

/**
 * `aerie key:create --application --user NAME [--memo TEXT] [--access servers=rw,nodes=r] [--allowed-ip IP]…`:
 * creates an application key for a root admin and prints the bearer token alone on stdout, for scripts
 * (`TOKEN=$(aerie key:create --application --user admin)`).
 */
export async function keyCreate(argv: string[]): Promise<void> {
  const { values, booleans } = parseFlags(argv, {
    values: ['user', 'memo', 'access', 'allowed-ip'],
    booleans: ['application'],
  });
  if (!booleans.has('application')) {
    throw new CliError(
      'Only application keys are made here: add --application (account keys are made in the panel).',
    );
  }
  if (!values.user) throw new CliError('Missing --user (the root admin the key acts as).');
  const access = parseAccess(values.access);
  const config = loadConfig();
  const { db } = await prepare(config, { migrate: true });
  try {
    const user = await findUserByLogin(db, values.user);
    if (!user) throw new CliError(`No user "${values.user}".`);
    if (!user.rootAdmin)
      throw new CliError(`"${user.username}" is not a root admin: application keys act as one.`);
    const { key, secret } = await new ApiKeyService({ db, clock: () => new Date() }).createApplicationKey(
      user,
      {
        memo: values.memo ?? 'Created with aerie key:create',
        allowedIps: values['allowed-ip'] ? values['allowed-ip'].split(',').map((ip) => ip.trim()) : [],
        access,
      },
      unrecorded,
    );
    console.error(`Created application key ${key.identifier} for "${user.username}" (shown only this once):`);
    console.log(key.identifier + secret);
  } finally {
    await db.destroy();
  }
}
