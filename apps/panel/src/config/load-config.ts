import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { type OutboundAllow, parseOutboundAllow } from '@aerie/panel/http/outbound/outbound-allow';
import type { AdmissionLimits } from '@aerie/shared/net/admission';
import { type ConnectionLimits, defaultConnectionLimits } from '@aerie/shared/net/connection-limits';
import ipaddr from 'ipaddr.js';
import { type Env, envSchema } from './env';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  appUrl: string;
  appName: string;
  /** `base64:…` from the environment; when absent the key lives in DATA_DIR (see crypto/app-key.ts). */
  appKey: string | undefined;
  databaseUrl: string | undefined;
  admin: { email?: string; username?: string; password?: string };
  mail: { url: string | undefined; from: string };
  recaptcha: { enabled: boolean; siteKey: string; secretKey: string; verifyUrl: string };
  /** Requests per minute per user on /api/client; 0 turns the limiter off. */
  apiClientRateLimit: number;
  /** Requests per minute per user on /api/application; 0 turns the limiter off. */
  apiApplicationRateLimit: number;
  /** Accepted TOTP drift in 30 s steps, each way. */
  totpWindow: number;
  /** Who must use 2FA when the `2fa_required` setting is unset: 0 nobody, 1 root admins, 2 everyone. */
  twoFactorRequired: 0 | 1 | 2;
  /** Hide root admins' entries from a server's activity log unless they are its owner or a subuser. */
  activityHideAdmin: boolean;
  /**
   * Where users' pictures come from: a URL with `{md5}` or `{sha256}` of the lowercased email address. Unset (the
   * default): no picture URL is given out and no request leaves the panel; the pages draw initials.
   */
  avatarUrlTemplate: string | undefined;
  /** The time zone schedules' cron fields are read in (APP_TIMEZONE, an IANA name; UTC by default). */
  timezone: string;
  /** Tasks one schedule may have (SCHEDULE_TASK_LIMIT; upstream's PTERODACTYL_PER_SCHEDULE_TASK_LIMIT, 10). */
  scheduleTaskLimit: number;
  /** Backups (reference/wings.md §7): where new ones are stored, the S3 store, limits and the failure check. */
  backups: BackupConfig;
  /**
   * Fastify's trustProxy (TRUST_PROXY): false (X-Forwarded-* ignored), true (every hop trusted), a number of
   * proxy hops in front of the panel, or a list of addresses/CIDRs of trusted proxies.
   */
  trustProxy: boolean | number | string[];
  /**
   * Bounds on the panel's HTTP connections (PANEL_MAX_CONNECTIONS, PANEL_MAX_CONNECTIONS_PER_ADDRESS,
   * PANEL_HEADERS_TIMEOUT, PANEL_IDLE_TIMEOUT, PANEL_KEEP_ALIVE_TIMEOUT), counted by the TCP peer whatever
   * TRUST_PROXY says; see packages/shared/src/net/connection-limits.ts.
   */
  connections: ConnectionLimits;
  /**
   * When the panel refuses new requests with 503 rather than queueing them (PANEL_MAX_EVENT_LOOP_DELAY in ms,
   * PANEL_MAX_IN_FLIGHT, PANEL_RESERVED_IN_FLIGHT; 0 turns a bound off); see packages/shared/src/net/admission.ts.
   */
  admission: AdmissionLimits;
  /**
   * Where state several panel processes share lives (REDIS_URL): rate limits, sign-in throttles, cross-process
   * events. Unset: in this process's memory. `prefix` (REDIS_PREFIX) starts every key and channel.
   */
  redis: { url: string; prefix: string } | undefined;
  /** The local daemon `aerie up` starts: its ports and how it runs servers (RUNTIME). */
  daemon: { port: number; sftpPort: number; runtime: 'process' | 'process-unsafe' | 'docker' };
  /** Ports on 127.0.0.1 the local node offers to servers (the demo server takes the first). */
  demoPortRange: { from: number; to: number };
  webDist: string;
  logLevel: Env['LOG_LEVEL'];
  /**
   * Destinations the panel's own outbound requests (an identity provider's discovery, token and user calls) may
   * reach although not public (AERIE_OUTBOUND_ALLOW): networks and host names; plain http only to these.
   */
  outboundAllow: OutboundAllow;
}

export interface BackupConfig {
  /** Where new backups go: the node's backup directory (`wings`) or the S3 bucket (`s3`). APP_BACKUP_DRIVER. */
  driver: 'wings' | 's3';
  /** The S3 store, when AWS_BACKUPS_BUCKET is set (backups already on S3 stay reachable with the driver back at wings). */
  s3: {
    region: string;
    bucket: string;
    endpoint: string | undefined;
    forcePathStyle: boolean;
    /** Unset: the SDK's default credential chain (instance roles…). */
    credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  } | null;
  /** Bytes per multipart part the node uploads (BACKUP_MAX_PART_SIZE, 5 GiB). */
  maxPartSize: number;
  /** Lifetime of the presigned part URLs, in seconds (BACKUP_PRESIGNED_URL_LIFESPAN minutes, 60). */
  presignedUrlLifespanSeconds: number;
  /** Non-failed backups a server may start within `throttlePeriodSeconds` (BACKUP_THROTTLE_LIMIT, 2). */
  throttleLimit: number;
  /** BACKUP_THROTTLE_PERIOD seconds (600); 0 turns the throttle off. */
  throttlePeriodSeconds: number;
  /** A backup its node never reported on is marked failed this long after it started (BACKUP_PRUNE_AGE minutes, 360); 0: never. */
  pruneAgeMinutes: number;
  /** A schedule's backup at the limit deletes the oldest unlocked successful backup first (BACKUP_ROTATE_OLDEST). */
  rotateOldest: boolean;
}

/** Thrown when the configuration is invalid; the message lists every bad variable and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Source = Record<string, string | undefined>;

/** Reads `DATA_DIR/.env` when it exists. Values from the real environment win over the file. */
function readDotEnv(dataDir: string): Source {
  const file = join(dataDir, '.env');
  if (!existsSync(file)) return {};
  try {
    return parseEnv(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Invalid configuration: cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Empty values count as unset, so `PORT=` in a .env file falls back to the default instead of failing. */
function withoutEmpty(source: Source): Source {
  return Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
}

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list like any CIDR. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined || !ipaddr.isValid(address)) return false;
  if (prefix === undefined) return true;
  const bits = ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits;
}

/**
 * TRUST_PROXY: `false` (default) or `0`: X-Forwarded-For is ignored and the address is the peer's; a whole number
 * N: the panel sits behind N proxies (the address is the Nth from the right of X-Forwarded-For); `true`: every hop
 * is trusted (the leftmost entry wins, so only behind a proxy that overwrites the header); else a comma-separated
 * list of the proxies' addresses or CIDRs.
 * @returns the value for Fastify, or a message saying what is wrong
 */
function parseTrustProxy(value: string): boolean | number | string[] | { error: string } {
  const lowered = value.toLowerCase();
  if (['false', 'no', 'off', ''].includes(lowered)) return false;
  if (['true', 'yes', 'on'].includes(lowered)) return true;
  if (/^\d{1,3}$/.test(lowered)) return Number(lowered) === 0 ? false : Number(lowered);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0)
    return {
      error: `must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDRs (not ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
    };
  return entries;
}

/** The connection bounds: each variable given (counts, or seconds), the shared defaults for the rest. */
function connectionLimits(e: Env): ConnectionLimits {
  const defaults = defaultConnectionLimits();
  const milliseconds = (seconds: number | undefined, fallback: number) =>
    seconds === undefined ? fallback : seconds * 1000;
  return {
    maxConnections: e.PANEL_MAX_CONNECTIONS ?? defaults.maxConnections,
    maxPerAddress: e.PANEL_MAX_CONNECTIONS_PER_ADDRESS ?? defaults.maxPerAddress,
    headersTimeoutMs: milliseconds(e.PANEL_HEADERS_TIMEOUT, defaults.headersTimeoutMs),
    idleTimeoutMs: milliseconds(e.PANEL_IDLE_TIMEOUT, defaults.idleTimeoutMs),
    keepAliveTimeoutMs: milliseconds(e.PANEL_KEEP_ALIVE_TIMEOUT, defaults.keepAliveTimeoutMs),
  };
}

/**
 * Builds the validated configuration from `env` (process.env by default) and `DATA_DIR/.env`.
 * @throws ConfigError naming each invalid variable, e.g. `PORT: must be a whole number between 0 and 65535 (got "abc")`.
 */
export function loadConfig(env: Source = process.env): Config {
  const dataDir = resolve(env.DATA_DIR || './data');
  const merged = { ...withoutEmpty(readDotEnv(dataDir)), ...withoutEmpty(env), DATA_DIR: dataDir };
  const parsed = envSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'configuration');
      const got = merged[key as keyof typeof merged];
      const shown =
        got === undefined || /KEY|PASSWORD|SECRET/.test(key) ? '' : ` (got ${JSON.stringify(got)})`;
      return `  - ${key}: ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'object' && 'error' in trustProxy) {
    throw new ConfigError(`Invalid configuration:\n  - TRUST_PROXY: ${trustProxy.error}`);
  }
  let outboundAllow: OutboundAllow;
  try {
    outboundAllow = parseOutboundAllow(e.AERIE_OUTBOUND_ALLOW);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  - AERIE_OUTBOUND_ALLOW: ${(error as Error).message}`);
  }
  return {
    dataDir,
    host: e.HOST,
    port: e.PORT,
    appUrl: e.APP_URL ?? `http://127.0.0.1:${e.PORT}`,
    appName: e.APP_NAME,
    appKey: e.APP_KEY,
    databaseUrl: e.DATABASE_URL,
    admin: { email: e.ADMIN_EMAIL, username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD },
    mail: { url: e.MAIL_URL, from: e.MAIL_FROM },
    recaptcha: {
      enabled: e.RECAPTCHA_ENABLED,
      siteKey: e.RECAPTCHA_SITE_KEY,
      secretKey: e.RECAPTCHA_SECRET_KEY,
      verifyUrl: e.RECAPTCHA_VERIFY_URL,
    },
    apiClientRateLimit: e.API_CLIENT_RATELIMIT,
    apiApplicationRateLimit: e.API_APPLICATION_RATELIMIT,
    totpWindow: e.TOTP_WINDOW,
    twoFactorRequired: e.APP_2FA_REQUIRED,
    activityHideAdmin: e.APP_ACTIVITY_HIDE_ADMIN,
    avatarUrlTemplate: e.AVATAR_URL_TEMPLATE,
    timezone: e.APP_TIMEZONE,
    scheduleTaskLimit: e.SCHEDULE_TASK_LIMIT,
    backups: {
      driver: e.APP_BACKUP_DRIVER,
      s3: e.AWS_BACKUPS_BUCKET
        ? {
            region: e.AWS_DEFAULT_REGION,
            bucket: e.AWS_BACKUPS_BUCKET,
            endpoint: e.AWS_ENDPOINT,
            forcePathStyle: e.AWS_USE_PATH_STYLE_ENDPOINT,
            credentials:
              e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
                ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
                : undefined,
          }
        : null,
      maxPartSize: e.BACKUP_MAX_PART_SIZE,
      presignedUrlLifespanSeconds: e.BACKUP_PRESIGNED_URL_LIFESPAN * 60,
      throttleLimit: e.BACKUP_THROTTLE_LIMIT,
      throttlePeriodSeconds: e.BACKUP_THROTTLE_PERIOD,
      pruneAgeMinutes: e.BACKUP_PRUNE_AGE,
      rotateOldest: e.BACKUP_ROTATE_OLDEST,
    },
    trustProxy,
    connections: connectionLimits(e),
    admission: {
      maxEventLoopDelayMs: e.PANEL_MAX_EVENT_LOOP_DELAY,
      maxInFlight: e.PANEL_MAX_IN_FLIGHT,
      reservedInFlight: e.PANEL_RESERVED_IN_FLIGHT,
    },
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : undefined,
    daemon: { port: e.DAEMON_PORT, sftpPort: e.DAEMON_SFTP_PORT, runtime: e.RUNTIME },
    demoPortRange: { from: e.DEMO_PORT_RANGE[0], to: e.DEMO_PORT_RANGE[1] },
    webDist: resolve(e.WEB_DIST ?? join(repoRoot, 'apps/web/dist')),
    logLevel: e.LOG_LEVEL,
    outboundAllow,
  };
}
