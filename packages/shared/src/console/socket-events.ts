/**
 * The console websocket protocol (reference/pterodactyl-client-api.md §9.2), shared by the daemon's socket and the
 * web console. Every frame is `{"event": "<name>", "args": ["<string>", …]}`; `args` is left out when empty.
 */

/** What the browser sends. */
export const ClientEvent = {
  auth: 'auth',
  setState: 'set state',
  sendCommand: 'send command',
  sendLogs: 'send logs',
  sendStats: 'send stats',
} as const;
export type ClientEventName = (typeof ClientEvent)[keyof typeof ClientEvent];

/** What the daemon sends. `backup completed` arrives as `backup completed:<backup uuid>`. */
export const DaemonEvent = {
  authSuccess: 'auth success',
  status: 'status',
  stats: 'stats',
  consoleOutput: 'console output',
  installOutput: 'install output',
  installStarted: 'install started',
  installCompleted: 'install completed',
  daemonMessage: 'daemon message',
  daemonError: 'daemon error',
  jwtError: 'jwt error',
  tokenExpiring: 'token expiring',
  tokenExpired: 'token expired',
  backupCompleted: 'backup completed',
  backupRestoreCompleted: 'backup restore completed',
  transferLogs: 'transfer logs',
  transferStatus: 'transfer status',
  deleted: 'deleted',
} as const;
export type DaemonEventName = (typeof DaemonEvent)[keyof typeof DaemonEvent];

/** `args[0]` of `set state`. `kill` needs control.stop, like `stop`. */
export const powerActions = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof powerActions)[number];

/** `args[0]` of `status`. */
export const powerStates = ['offline', 'starting', 'running', 'stopping'] as const;
export type PowerState = (typeof powerStates)[number];
export const isPowerState = (value: unknown): value is PowerState =>
  typeof value === 'string' && (powerStates as readonly string[]).includes(value);

/** `args[0]` of `transfer status`. The SPA keeps its socket only for `starting` and `success`. */
export const transferStatuses = [
  'starting',
  'pending',
  'processing',
  'cancelling',
  'cancelled',
  'failed',
  'completed',
  'failure',
  'success',
] as const;
export type TransferStatus = (typeof transferStatuses)[number];

/** `jwt error` reasons the daemon sends (Wings' wording). */
export const jwtErrors = {
  expired: 'jwt: exp claim is invalid',
  denied: 'jwt: created too far in past (denylist)',
  missingConnect: 'jwt: missing connect permission',
  serverMismatch: 'jwt: server uuid mismatch',
  noToken: 'jwt: no jwt present',
} as const;

/**
 * Reasons after which a fresh token fixes things, so the client fetches one and authenticates again; any other
 * `jwt error` is final. Matched case-insensitively as substrings, as the daemon may add detail.
 */
export const refreshableJwtErrors: readonly string[] = ['exp claim is invalid', 'too far in past'];

/** True when a `jwt error` reason is cured by a fresh token. */
export const isRefreshableJwtError = (reason: string): boolean => {
  const lower = reason.toLowerCase();
  return refreshableJwtErrors.some((text) => lower.includes(text));
};

/** Close codes after which the browser does not reconnect: normal closure, going away, no status. */
export const finalCloseCodes: readonly number[] = [1000, 1001, 1005];
