/**
 * What `aerie up` passes on of its own environment to the local daemon. The panel's environment holds the
 * panel's secrets (DATABASE_URL, REDIS_URL, APP_KEY, ADMIN_PASSWORD, the S3 and mail credentials…) that the
 * daemon never needs; a daemon, or a game escaping into it, should not find them in its /proc/<pid>/environ.
 * So only these go through: what any process needs (PATH, HOME, locale, time zone, temporary directory), how
 * Node runs (NODE_OPTIONS, extra CA certificates, AERIE_TYPESCRIPT for bin/aerie.mjs), the log level, the Docker
 * engine's address, and the daemon's own namespace DAEMON_* (apps/daemon/src/config/env.ts reads DAEMON_HOST,
 * DAEMON_ALLOWED_ORIGINS, DAEMON_BACKUP_DIR, DAEMON_UPLOAD_LIMIT_MB, DAEMON_CONFIG… from it).
 */
const PASSED_ON: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'TMPDIR',
  'TZ',
  'LANG',
  'LANGUAGE',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'AERIE_TYPESCRIPT',
  'LOG_LEVEL',
  'DOCKER_HOST',
  'XDG_RUNTIME_DIR',
]);

const PASSED_ON_PREFIXES = ['LC_', 'DAEMON_'];

const passedOn = (name: string) =>
  PASSED_ON.has(name) || PASSED_ON_PREFIXES.some((prefix) => name.startsWith(prefix));

/**
 * The local daemon's environment: the allowed part of `inherited` (`aerie up`'s own), then what `aerie up`
 * sets for it (node token, ports, directories, panel URL), which wins.
 */
export function daemonEnvironment(
  inherited: NodeJS.ProcessEnv,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const passed = Object.entries(inherited).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && passedOn(entry[0]),
  );
  return { ...Object.fromEntries(passed), ...own };
}
