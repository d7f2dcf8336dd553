import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
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
  /** Fastify's trustProxy: false, true, or a list of addresses/CIDRs of trusted proxies. */
  trustProxy: boolean | string[];
  /** The local daemon `aerie up` starts: its ports and how it runs servers (RUNTIME). */
  daemon: { port: number; sftpPort: number; runtime: 'process' | 'process-unsafe' | 'docker' };
  /** Ports on 127.0.0.1 the local node offers to servers (the demo server takes the first). */
  demoPortRange: { from: number; to: number };
  webDist: string;
  logLevel: Env['LOG_LEVEL'];
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

function parseTrustProxy(value: string): boolean | string[] {
  const lowered = value.toLowerCase();
  if (['false', '0', 'no', 'off', ''].includes(lowered)) return false;
  if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
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
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    daemon: { port: e.DAEMON_PORT, sftpPort: e.DAEMON_SFTP_PORT, runtime: e.RUNTIME },
    demoPortRange: { from: e.DEMO_PORT_RANGE[0], to: e.DEMO_PORT_RANGE[1] },
    webDist: resolve(e.WEB_DIST ?? join(repoRoot, 'apps/web/dist')),
    logLevel: e.LOG_LEVEL,
  };
}
