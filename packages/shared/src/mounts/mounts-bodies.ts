import { z } from 'zod';
import { laravelBoolean, nullableText, requiredInteger, requiredText } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { requiredArray, rule } from '../validation/rules';

/**
 * Bodies of /api/application/mounts (Pelican's routes; Pterodactyl's admin form and its rules): name, source and
 * target required, a source or target never one Wings or Aerie keeps for itself.
 */

/** Where Pterodactyl and Wings keep their own files: never a mount's source (upstream's list). */
export const FORBIDDEN_MOUNT_SOURCES = [
  '/etc/pterodactyl',
  '/var/lib/pterodactyl/volumes',
  '/srv/daemon-data',
];
/** Where the game's files and the kernel's are: never a mount's target (the daemon refuses them too). */
export const RESERVED_MOUNT_TARGETS = ['/home/container', '/proc', '/sys', '/dev'];

const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);
/** The path with `.` and `..` names and repeated or trailing slashes worked out, as the daemon will read it. */
export function normalizeMountPath(value: string): string {
  const names: string[] = [];
  for (const name of value.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') names.pop();
    else names.push(name);
  }
  return `/${names.join('/')}`;
}

const absolutePath = () =>
  requiredText(1, 191)
    .refine((value) => value.startsWith('/') && !value.includes('\0'), rule('regex'))
    .transform(normalizeMountPath);

const optionalBoolean = () =>
  z.preprocess((value) => (value === null ? 'null' : value), laravelBoolean().optional());

/** POST /api/application/mounts; PATCH sends every required field again. */
export const mountBodySchema = z.object({
  name: requiredText(2, 64),
  description: nullableText(1000),
  source: absolutePath().refine(
    (value) => !FORBIDDEN_MOUNT_SOURCES.some((forbidden) => within(value, forbidden)) && value !== '/',
    rule('not_in'),
  ),
  target: absolutePath().refine(
    (value) => value !== '/' && !RESERVED_MOUNT_TARGETS.some((reserved) => within(value, reserved)),
    rule('not_in'),
  ),
  read_only: optionalBoolean(),
  user_mountable: optionalBoolean(),
});

export type MountBody = z.output<typeof mountBodySchema>;

const ids = () =>
  requiredArray(requiredInteger({ min: 1 })).refine((list) => list.length <= 1000, {
    error: 'max' satisfies LaravelRule,
    params: { max: 1000 },
  });

/** POST /api/application/mounts/{mount}/eggs, /nodes and /servers: the ids to attach. */
export const mountEggsBodySchema = z.object({ eggs: ids() });
export const mountNodesBodySchema = z.object({ nodes: ids() });
export const mountServersBodySchema = z.object({ servers: ids() });

/** Laravel's attribute names of these requests. */
export const mountAttributeNames = { read_only: 'Read Only', user_mountable: 'User Mountable' } as const;

export const mountMessages = {
  hasServers: 'A mount must have no servers attached to it in order to be deleted.',
  /** A server may only use a mount attached to both its egg and its node. */
  notAllowedForServer: (server: number) =>
    `The mount is not attached to the egg and node of server ${server}, so that server cannot use it.`,
} as const;
