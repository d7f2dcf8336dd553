import { defaultAdmissionLimits } from '@aerie/shared/net/admission';
import { z } from 'zod';

/** The panel's and the daemon's admission bounds share their defaults (packages/shared/src/net/admission.ts). */
const admissionDefaults = defaultAdmissionLimits();

/** Strings like "true", "1", "yes" from the environment; anything else is refused rather than read as false. */
const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'must be true or false',
    }),
  )
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

const port = (fallback: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .pipe(
      z
        .string()
        .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
        .transform(Number)
        .pipe(z.number().max(65535, 'must be a whole number between 0 and 65535')),
    );

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/** A whole number (at most 15 digits) with a default. */
const wholeNumber = (fallback: string, message: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .pipe(z.string().regex(/^\d{1,15}$/, message))
    .transform(Number);

/** A whole number from 1 (at most 15 digits), unset by default. */
const positiveCount = (message: string) =>
  z
    .string()
    .trim()
    .pipe(z.string().regex(/^[1-9]\d{0,14}$/, message))
    .transform(Number)
    .optional();

/** A time zone this Node knows (the cron of schedules is read in it). */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const databaseUrl = nonEmpty.refine(
  (value) => /^(postgres|postgresql|mysql|mariadb):\/\/[^\s]+$/.test(value),
  {
    error: 'must be a postgres://… or mysql://… URL (leave it unset for SQLite in DATA_DIR)',
  },
);

/**
 * The panel's configuration, read from the environment (and `.env` in DATA_DIR) and checked once at boot.
 * Keys and defaults follow the architecture document; every message names what is wrong with the value.
 */
export const envSchema = z
  .object({
    DATA_DIR: nonEmpty.default('./data'),
    HOST: nonEmpty.default('127.0.0.1'),
    PORT: port(8080),
    APP_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    APP_NAME: nonEmpty.max(191, 'must be at most 191 characters').default('Aerie'),
    APP_KEY: z
      .string()
      .trim()
      .regex(/^base64:[A-Za-z0-9+/]{43}=$/, 'must be "base64:" followed by 32 random bytes in base64')
      .optional(),
    DATABASE_URL: databaseUrl.optional(),
    ADMIN_EMAIL: z.email({ error: 'must be a valid email address' }).optional(),
    ADMIN_USERNAME: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_.-]{0,190}$/i, 'must be letters, numbers, dots, dashes or underscores')
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    MAIL_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: nonEmpty.default('Aerie <no-reply@localhost>'),
    RECAPTCHA_ENABLED: booleanFlag.default(false),
    RECAPTCHA_SITE_KEY: z.string().trim().default(''),
    RECAPTCHA_SECRET_KEY: z.string().trim().default(''),
    RECAPTCHA_VERIFY_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .default('https://www.google.com/recaptcha/api/siteverify'),
    API_CLIENT_RATELIMIT: z
      .string()
      .trim()
      .default('720')
      .pipe(z.string().regex(/^\d+$/, 'must be a whole number of requests per minute (0 turns it off)'))
      .transform(Number),
    API_APPLICATION_RATELIMIT: z
      .string()
      .trim()
      .default('240')
      .pipe(z.string().regex(/^\d+$/, 'must be a whole number of requests per minute (0 turns it off)'))
      .transform(Number),
    TOTP_WINDOW: z
      .string()
      .trim()
      .default('4')
      .pipe(z.enum(['1', '2', '3', '4'], { error: 'must be 1, 2, 3 or 4 (time steps of 30 s)' }))
      .transform(Number),
    APP_2FA_REQUIRED: z
      .string()
      .trim()
      .default('0')
      .pipe(z.enum(['0', '1', '2'], { error: 'must be 0 (nobody), 1 (admins) or 2 (everyone)' }))
      .transform((value) => Number(value) as 0 | 1 | 2),
    APP_ACTIVITY_HIDE_ADMIN: booleanFlag.default(false),
    AVATAR_URL_TEMPLATE: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .refine((value) => /\{(md5|sha256)\}/.test(value), {
        error: 'must contain {md5} or {sha256}, where the hash of the email address goes',
      })
      .optional(),
    APP_TIMEZONE: nonEmpty
      .default('UTC')
      .refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or Europe/Berlin' }),
    SCHEDULE_TASK_LIMIT: z
      .string()
      .trim()
      .default('10')
      .pipe(z.string().regex(/^[1-9]\d{0,3}$/, 'must be a whole number from 1 to 9999'))
      .transform(Number),
    TRUST_PROXY: z.string().trim().default('false'),
    PANEL_MAX_CONNECTIONS: positiveCount('must be a whole number of connections from 1'),
    PANEL_MAX_CONNECTIONS_PER_ADDRESS: positiveCount('must be a whole number of connections from 1'),
    PANEL_HEADERS_TIMEOUT: positiveCount('must be a whole number of seconds from 1'),
    PANEL_IDLE_TIMEOUT: positiveCount('must be a whole number of seconds from 1'),
    PANEL_KEEP_ALIVE_TIMEOUT: positiveCount('must be a whole number of seconds from 1'),
    PANEL_MAX_EVENT_LOOP_DELAY: wholeNumber(
      String(admissionDefaults.maxEventLoopDelayMs),
      'must be a whole number of milliseconds (0 turns it off)',
    ),
    PANEL_MAX_IN_FLIGHT: wholeNumber(
      String(admissionDefaults.maxInFlight),
      'must be a whole number of requests (0 turns it off)',
    ),
    PANEL_RESERVED_IN_FLIGHT: wholeNumber(
      String(admissionDefaults.reservedInFlight),
      'must be a whole number of requests',
    ),
    AERIE_OUTBOUND_ALLOW: z.string().trim().optional(),
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    REDIS_PREFIX: z
      .string()
      .trim()
      .default('aerie:')
      .pipe(z.string().regex(/^[\w:.-]{1,64}$/, 'must be 1-64 letters, digits or _ : . -')),
    APP_BACKUP_DRIVER: z
      .string()
      .trim()
      .toLowerCase()
      .default('wings')
      .pipe(z.enum(['wings', 's3'], { error: 'must be wings (the node keeps backups) or s3' })),
    AWS_DEFAULT_REGION: nonEmpty.default('us-east-1'),
    AWS_ACCESS_KEY_ID: z.string().trim().optional(),
    AWS_SECRET_ACCESS_KEY: z.string().trim().optional(),
    AWS_BACKUPS_BUCKET: z.string().trim().optional(),
    AWS_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    AWS_USE_PATH_STYLE_ENDPOINT: booleanFlag.default(false),
    BACKUP_MAX_PART_SIZE: wholeNumber(
      String(5 * 1024 ** 3),
      'must be a whole number of bytes from 5242880 (5 MiB) to 5368709120 (5 GiB)',
    ).refine((value) => value >= 5 * 1024 ** 2 && value <= 5 * 1024 ** 3, {
      error: 'must be a whole number of bytes from 5242880 (5 MiB) to 5368709120 (5 GiB)',
    }),
    BACKUP_PRESIGNED_URL_LIFESPAN: wholeNumber(
      '60',
      'must be a whole number of minutes from 1 to 10080',
    ).refine((value) => value >= 1 && value <= 10_080, {
      error: 'must be a whole number of minutes from 1 to 10080',
    }),
    BACKUP_THROTTLE_LIMIT: wholeNumber('2', 'must be a whole number of backups'),
    BACKUP_THROTTLE_PERIOD: wholeNumber(
      '600',
      'must be a whole number of seconds (0 turns the throttle off)',
    ),
    BACKUP_PRUNE_AGE: wholeNumber('360', 'must be a whole number of minutes (0: never mark backups failed)'),
    BACKUP_ROTATE_OLDEST: booleanFlag.default(false),
    DAEMON_PORT: port(8081),
    DAEMON_SFTP_PORT: port(2022),
    RUNTIME: z
      .string()
      .trim()
      .toLowerCase()
      .default('process')
      .pipe(
        z.enum(['process', 'process-unsafe', 'docker'], {
          error: 'must be process, process-unsafe or docker',
        }),
      ),
    DEMO_PORT_RANGE: z
      .string()
      .trim()
      .default('25565-25575')
      .pipe(z.string().regex(/^\d{1,5}-\d{1,5}$/, 'must be two ports joined by a dash, e.g. 25565-25575'))
      .transform((value) => value.split('-').map(Number) as [number, number])
      .refine(([from, to]) => from >= 1 && from <= to && to <= 65535, {
        error: 'must run from a lower to a higher port, within 1-65535',
      }),
    WEB_DIST: nonEmpty.optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.RECAPTCHA_ENABLED && (!env.RECAPTCHA_SITE_KEY || !env.RECAPTCHA_SECRET_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['RECAPTCHA_SECRET_KEY'],
        message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY are required when RECAPTCHA_ENABLED is true',
      });
    }
    if (env.APP_BACKUP_DRIVER === 's3' && !env.AWS_BACKUPS_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['AWS_BACKUPS_BUCKET'],
        message: 'is required when APP_BACKUP_DRIVER is s3 (the bucket backups are stored in)',
      });
    }
  });

export type Env = z.output<typeof envSchema>;
