/**
 * What the admin audit log records: every change made through the admin area or the Application API, one action
 * per route. Written `<subject>.<verb>`; the admin area translates them by name (admin.json `audit.actions`).
 */
export const auditActions = [
  'api_key.create',
  'api_key.delete',
  'user.create',
  'user.update',
  'user.delete',
  'location.create',
  'location.update',
  'location.delete',
  'node.create',
  'node.update',
  'node.delete',
  'allocation.create',
  'allocation.delete',
  'nest.create',
  'nest.update',
  'nest.delete',
  'egg.import',
  'egg.update',
  'egg.delete',
  'egg_variable.create',
  'egg_variable.update',
  'egg_variable.delete',
  'server.create',
  'server.details',
  'server.build',
  'server.startup',
  'server.suspend',
  'server.unsuspend',
  'server.reinstall',
  'server.delete',
  'server.transfer',
  'server.transfer_cancel',
  'database.create',
  'database.reset_password',
  'database.delete',
  'database_host.create',
  'database_host.update',
  'database_host.delete',
  'mount.create',
  'mount.update',
  'mount.delete',
  'mount.attach',
  'mount.detach',
  'settings.update',
  'admin_role.create',
  'admin_role.update',
  'admin_role.delete',
  'user.role',
  'oauth_provider.create',
  'oauth_provider.update',
  'oauth_provider.delete',
] as const;

export type AuditAction = (typeof auditActions)[number];

/** What an entry is about: the Application API's object names. */
export const auditSubjectTypes = [
  'api_key',
  'user',
  'location',
  'node',
  'allocation',
  'nest',
  'egg',
  'egg_variable',
  'server',
  'server_database',
  'database_host',
  'mount',
  'settings',
  'admin_role',
  'oauth_provider',
] as const;

export type AuditSubjectType = (typeof auditSubjectTypes)[number];

export const isAuditAction = (value: string): value is AuditAction =>
  (auditActions as readonly string[]).includes(value);
