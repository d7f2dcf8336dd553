/**
 * Every activity event name the panel records or will record (reference §7.3, plus the `auth:` events of
 * Pterodactyl's authentication listeners; `auth:throttled`, a sign-in refused for too many attempts, is Aerie's). Written `<area>:<subject>.<verb>`; clients translate by name.
 * `server:file.chmod` is Aerie's own (upstream logs no chmod), and so are the schedule worker's `server:schedule.run`,
 * `.fail`, `.stop` and `.skip` (upstream logs a run by hand only), recorded with no actor when a run ends. The
 * `server:backup.complete`/`.fail`/`.restore-complete`/`.restore-failed` entries are the node's reports (no actor).
 * The `server:sftp.*` entries are what a node reports through `POST /api/remote/activity` (Wings' SFTP events;
 * `server:sftp.login` is Aerie's own: upstream logs no successful SFTP login). Passkeys (`auth:passkey`, `user:passkey.*`) are Aerie's own.
 */
export const activityEvents = [
  'auth:success',
  'auth:fail',
  'auth:checkpoint',
  'auth:token',
  'auth:recovery-token',
  'auth:ip-blocked',
  'auth:throttled',
  'auth:oauth',
  'auth:oauth-fail',
  'auth:passkey',
  'user:account.email-changed',
  'user:account.password-changed',
  'user:api-key.create',
  'user:api-key.delete',
  'user:ssh-key.create',
  'user:ssh-key.delete',
  'user:passkey.create',
  'user:passkey.update',
  'user:passkey.delete',
  'user:two-factor.create',
  'user:two-factor.delete',
  'user:oauth.link',
  'user:oauth.unlink',
  'user:oauth.create-account',
  'server:console.command',
  'server:power.start',
  'server:power.stop',
  'server:power.restart',
  'server:power.kill',
  'server:database.create',
  'server:database.rotate-password',
  'server:database.delete',
  'server:file.read',
  'server:file.download',
  'server:file.write',
  'server:file.create-directory',
  'server:file.rename',
  'server:file.copy',
  'server:file.compress',
  'server:file.decompress',
  'server:file.delete',
  'server:file.pull',
  'server:file.chmod',
  'server:file.upload',
  'server:sftp.login',
  'server:sftp.write',
  'server:sftp.create',
  'server:sftp.create-directory',
  'server:sftp.rename',
  'server:sftp.delete',
  'server:schedule.create',
  'server:schedule.update',
  'server:schedule.execute',
  'server:schedule.delete',
  'server:schedule.run',
  'server:schedule.fail',
  'server:schedule.stop',
  'server:schedule.skip',
  'server:task.create',
  'server:task.update',
  'server:task.delete',
  'server:allocation.create',
  'server:allocation.notes',
  'server:allocation.primary',
  'server:allocation.delete',
  'server:mount.attach',
  'server:mount.detach',
  'server:subuser.create',
  'server:subuser.update',
  'server:subuser.delete',
  'server:backup.start',
  'server:backup.lock',
  'server:backup.unlock',
  'server:backup.delete',
  'server:backup.download',
  'server:backup.restore',
  'server:backup.complete',
  'server:backup.fail',
  'server:backup.restore-complete',
  'server:backup.restore-failed',
  'server:startup.edit',
  'server:startup.image',
  'server:settings.rename',
  'server:settings.description',
  'server:reinstall',
] as const;

export type ActivityEvent = (typeof activityEvents)[number];

/** Recorded but never listed (upstream's `ActivityLog::DISABLED_EVENTS`): a signed upload URL says nothing yet. */
export const unlistedActivityEvents: readonly ActivityEvent[] = ['server:file.upload'];

/**
 * What a node may report through `POST /api/remote/activity`: the SFTP events its SFTP server records. Anything
 * else is refused, so a node cannot write other events (a power action, a sign-in) into a server's log.
 */
export const nodeReportedActivityEvents = [
  'server:sftp.login',
  'server:sftp.write',
  'server:sftp.create',
  'server:sftp.create-directory',
  'server:sftp.rename',
  'server:sftp.delete',
] as const satisfies readonly ActivityEvent[];

export type NodeReportedActivityEvent = (typeof nodeReportedActivityEvents)[number];
