import type { EventEmitter } from 'node:events';
import type { BackupCompletedEvent } from '@aerie/shared/backups/backups-daemon-wire';
import type { TransferStatus } from '@aerie/shared/console/socket-events';

export type ServerState = 'offline' | 'starting' | 'running' | 'stopping';
export type PowerAction = 'start' | 'stop' | 'restart' | 'kill';

/** Wings' stats object: `args[0]` of the `stats` socket event and `utilization` of `GET /api/servers/{uuid}`. */
export interface ServerStats {
  memory_bytes: number;
  memory_limit_bytes: number;
  cpu_absolute: number;
  network: { rx_bytes: number; tx_bytes: number };
  /** ms since the process started; 0 when offline. */
  uptime: number;
  state: ServerState;
  disk_bytes: number;
}

/**
 * What a managed server tells its listeners. The console websocket forwards these to sockets; names follow the
 * socket events of reference/pterodactyl-client-api.md §9.2.
 */
export interface ConsoleServerEvents {
  status: [state: ServerState];
  /** One console line, already capped at 64 KiB and throttled (dropped lines never arrive here). */
  'console output': [line: string];
  /** A line the daemon says (install progress, crash notices, throttling), already prefixed and coloured. */
  'daemon message': [line: string];
  /** An installer output line. Sockets need admin.websocket.install. */
  'install output': [line: string];
  'install started': [];
  'install completed': [];
  /** Every second while running, once when going offline, and on request. */
  stats: [stats: ServerStats];
  /** A power action failed after it was accepted; sockets show it as `daemon error`. */
  error: [message: string];
  /** A backup ended (`backup completed:<uuid>` to sockets holding backup.read). */
  'backup completed': [backup: string, event: BackupCompletedEvent];
  /** A restore ended, successfully or not (`backup restore completed` to every socket). */
  'backup restore completed': [];
  /** A transfer's progress line. Sockets need admin.websocket.transfer. */
  'transfer logs': [line: string];
  /** A transfer's step (packages/shared console/socket-events.ts `transferStatuses`), to every socket. */
  'transfer status': [status: TransferStatus];
  /** The server was removed from this daemon: sockets close with 1001. */
  deleted: [];
}

/** Thrown by power() when another action holds the lock and `waitMs` ran out (Wings' text). */
export const POWER_LOCKED_MESSAGE =
  'another power action is currently being processed for this server, please try again later';

/** The server as the console websocket and the HTTP routes see it. */
export interface ConsoleServer extends EventEmitter<ConsoleServerEvents> {
  readonly uuid: string;
  readonly state: ServerState;
  readonly isInstalling: boolean;
  readonly isTransferring: boolean;
  readonly isSuspended: boolean;
  /** Runs a power action; start/stop/restart wait up to waitMs for the lock (0 = refuse at once). */
  power(action: PowerAction, waitMs?: number): Promise<void>;
  /** Writes a command to the game's stdin. @throws when the server is not running */
  sendCommand(command: string): void;
  /** The last 150 console lines (what `send logs` replays), oldest first. */
  recentLogs(): readonly string[];
  /** The current figures. */
  stats(): ServerStats;
}
