/** The permissions the daemon itself checks in tokens (the panel's catalogue holds the rest). */
export const DAEMON_PERMISSIONS = {
  connect: 'websocket.connect',
  sendCommand: 'control.console',
  start: 'control.start',
  stop: 'control.stop',
  restart: 'control.restart',
  receiveErrors: 'admin.websocket.errors',
  receiveInstall: 'admin.websocket.install',
  receiveTransfer: 'admin.websocket.transfer',
  /** `backup completed:<uuid>` events. */
  readBackups: 'backup.read',
} as const;

/**
 * Wings' matcher: a permission is granted by itself, or by `*` unless it is an `admin.` one (those go to root
 * admins by name only, so a server owner's `*` never shows installer output or internal errors).
 */
export function hasPermission(granted: readonly string[], permission: string): boolean {
  if (granted.includes(permission)) return true;
  return !permission.startsWith('admin.') && granted.includes('*');
}
