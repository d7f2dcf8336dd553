import path from 'node:path';
import { parseAllowedNetworks } from '@aerie/daemon/pull/pull-destinations';
import { defaultPullSettings, type PullSettings } from '@aerie/daemon/pull/pull-settings';
import {
  type AllowedDestination,
  parseAllowedDestinations,
} from '@aerie/daemon/runtime/process/network/game-network-plan';
import { fileLimits } from '@aerie/shared/files/file-wire';
import { type AdmissionLimits, defaultAdmissionLimits } from '@aerie/shared/net/admission';
import { z } from 'zod';
import { readDaemonConfigFile } from './config-file';

const port = z
  .string()
  .trim()
  .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
  .transform(Number)
  .pipe(z.number().max(65535, 'must be a whole number between 0 and 65535'));

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), {
    message: 'must be an http:// or https:// URL such as http://127.0.0.1:8080',
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** A whole number setting of `unit`, at least `min`, up to 7 digits. */
const wholeNumber = (unit: string, fallback: string, min: number) =>
  z
    .string()
    .trim()
    .default(fallback)
    .pipe(z.string().regex(/^\d{1,7}$/, `must be a whole number of ${unit}, at least ${min}`))
    .transform(Number)
    .pipe(z.number().min(min, `must be a whole number of ${unit}, at least ${min}`));

const schema = z.object({
  DAEMON_HOST: z.string().trim().min(1).default('127.0.0.1'),
  DAEMON_PORT: z.string().default('8081').pipe(port),
  DAEMON_SFTP_PORT: z.string().default('2022').pipe(port),
  DAEMON_TOKEN_ID: z
    .string({ error: 'is required: the node token id the panel issued for this daemon' })
    .trim()
    .min(1),
  DAEMON_TOKEN: z
    .string({ error: 'is required: the node token the panel issued for this daemon' })
    .trim()
    .min(16, 'must be the node token (at least 16 characters)'),
  PANEL_URL: httpUrl.default('http://127.0.0.1:8080'),
  DAEMON_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    ),
  DAEMON_ALLOWED_MOUNTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every((entry) => entry.startsWith('/') && !entry.includes('\0')), {
      message: 'must be absolute host paths, separated by commas',
    })
    .transform((entries) => entries.map((entry) => path.resolve(entry))),
  DATA_DIR: z.string().trim().default('./data'),
  DAEMON_DATA_DIR: z.string().trim().optional(),
  DAEMON_BACKUP_DIR: z.string().trim().optional(),
  DAEMON_UPLOAD_LIMIT_MB: z
    .string()
    .trim()
    .default(String(fileLimits.uploadLimitMb))
    .pipe(z.string().regex(/^[1-9]\d{0,6}$/, 'must be a whole number of MiB, at least 1'))
    .transform(Number),
  DAEMON_TRANSFER_LIMIT_MB: wholeNumber('MiB per second (0: no limit)', '0', 0),
  DAEMON_GAME_NETWORK_ALLOW: z
    .string()
    .default('')
    .transform((value, context) => {
      try {
        return parseAllowedDestinations(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  DAEMON_PULL_ALLOW: z
    .string()
    .default('')
    .transform((value, context) => {
      try {
        return parseAllowedNetworks(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  DAEMON_PULL_MAX_MB: wholeNumber('MiB', String(defaultPullSettings().maxBytes / 1024 / 1024), 0),
  DAEMON_PULL_TIMEOUT_SECONDS: wholeNumber('seconds', String(defaultPullSettings().timeoutMs / 1000), 1),
  DAEMON_PULL_IDLE_TIMEOUT_SECONDS: wholeNumber(
    'seconds',
    String(defaultPullSettings().idleTimeoutMs / 1000),
    1,
  ),
  DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS: wholeNumber('seconds', '60', 1),
  DAEMON_MAX_EVENT_LOOP_DELAY: wholeNumber(
    'milliseconds (0 turns it off)',
    String(defaultAdmissionLimits().maxEventLoopDelayMs),
    0,
  ),
  DAEMON_MAX_IN_FLIGHT: wholeNumber(
    'requests (0 turns it off)',
    String(defaultAdmissionLimits().maxInFlight),
    0,
  ),
  DAEMON_RESERVED_IN_FLIGHT: wholeNumber('requests', String(defaultAdmissionLimits().reservedInFlight), 0),
  RUNTIME: z
    .enum(['process', 'process-unsafe', 'docker'], { error: 'must be process, process-unsafe or docker' })
    .default('process'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export interface DaemonConfig {
  host: string;
  port: number;
  /** The SFTP server's port, on the same host (Wings' `system.sftp.bind_port`); 0 lets the system choose. */
  sftpPort: number;
  /** The node's credentials: the panel sends `token`; the daemon answers with `tokenId.token`. */
  tokenId: string;
  token: string;
  /** Base of /api/remote, and the Origin the websocket and CORS accept. */
  panelUrl: string;
  /** Further origins allowed for CORS and the websocket (`*` allows any). */
  allowedOrigins: string[];
  /**
   * Wings' `allowed_mounts`: host paths the panel's mounts may come from (a mount's source must resolve within one,
   * by whole path names); empty allows none.
   */
  allowedMounts: string[];
  /** Absolute: `volumes/<uuid>`, `states.json`, `logs/install/<uuid>.log`, `tmp/`. */
  dataDirectory: string;
  /** Local backups (`<backup uuid>.tar.gz`) and the temporary archives of both adapters; `<dataDirectory>/backups`. */
  backupDirectory: string;
  /** Largest file a signed upload accepts, in MiB (Wings' api.upload_limit). */
  uploadLimitMb: number;
  /** MiB per second a server transfer may send to another node; 0 for no limit (Wings' transfers.download_limit). */
  transferLimitMibPerSecond: number;
  /** `process-unsafe`: the process runtime without a sandbox (single-user development only). */
  runtime: 'process' | 'process-unsafe' | 'docker';
  /** What game servers may reach besides the internet: the host's or private addresses an admin opened. */
  gameNetworkAllow: AllowedDestination[];
  /** Remote pulls: networks opened to them (DAEMON_PULL_ALLOW), size and time bounds. */
  pull: PullSettings;
  /**
   * When the daemon refuses new requests with 503 rather than queueing them (DAEMON_MAX_EVENT_LOOP_DELAY in ms,
   * DAEMON_MAX_IN_FLIGHT, DAEMON_RESERVED_IN_FLIGHT; 0 turns a bound off): packages/shared/src/net/admission.ts.
   */
  admission: AdmissionLimits;
  /** Between shipments of the activity outbox to the panel (Wings' activity_send_interval, 60 s). */
  activitySendIntervalMs: number;
  logLevel: z.output<typeof schema>['LOG_LEVEL'];
}

export class DaemonConfigError extends Error {
  override name = 'DaemonConfigError';
}

/**
 * The settings from the environment; with DAEMON_CONFIG, from that file's `aerie.env` block first (the node's
 * configuration document, see config-file.ts), variables set in the environment winning over it.
 * @throws DaemonConfigError naming each bad variable, e.g. `DAEMON_TOKEN: is required…`
 */
export function loadDaemonConfig(env: Record<string, string | undefined> = process.env): DaemonConfig {
  const given = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  const fromFile = given.DAEMON_CONFIG ? readDaemonConfigFile(given.DAEMON_CONFIG) : {};
  const present: Record<string, string> = { ...fromFile, ...given };
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0]);
      // Never echo the token itself into a log.
      const got =
        key === 'DAEMON_TOKEN' || present[key] === undefined ? '' : ` (got ${JSON.stringify(present[key])})`;
      return `  - ${key}: ${i.message}${got}`;
    });
    throw new DaemonConfigError(`Invalid daemon configuration:\n${lines.join('\n')}`);
  }
  const data = parsed.data;
  const dataDirectory = path.resolve(data.DAEMON_DATA_DIR ?? path.join(data.DATA_DIR, 'daemon'));
  return {
    host: data.DAEMON_HOST,
    port: data.DAEMON_PORT,
    sftpPort: data.DAEMON_SFTP_PORT,
    tokenId: data.DAEMON_TOKEN_ID,
    token: data.DAEMON_TOKEN,
    panelUrl: data.PANEL_URL,
    allowedOrigins: data.DAEMON_ALLOWED_ORIGINS,
    allowedMounts: data.DAEMON_ALLOWED_MOUNTS,
    dataDirectory,
    backupDirectory: path.resolve(data.DAEMON_BACKUP_DIR ?? path.join(dataDirectory, 'backups')),
    uploadLimitMb: data.DAEMON_UPLOAD_LIMIT_MB,
    transferLimitMibPerSecond: data.DAEMON_TRANSFER_LIMIT_MB,
    runtime: data.RUNTIME,
    gameNetworkAllow: data.DAEMON_GAME_NETWORK_ALLOW,
    pull: {
      allow: data.DAEMON_PULL_ALLOW,
      maxBytes: data.DAEMON_PULL_MAX_MB * 1024 * 1024,
      timeoutMs: data.DAEMON_PULL_TIMEOUT_SECONDS * 1000,
      idleTimeoutMs: data.DAEMON_PULL_IDLE_TIMEOUT_SECONDS * 1000,
    },
    activitySendIntervalMs: data.DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS * 1000,
    admission: {
      maxEventLoopDelayMs: data.DAEMON_MAX_EVENT_LOOP_DELAY,
      maxInFlight: data.DAEMON_MAX_IN_FLIGHT,
      reservedInFlight: data.DAEMON_RESERVED_IN_FLIGHT,
    },
    logLevel: data.LOG_LEVEL,
  };
}
