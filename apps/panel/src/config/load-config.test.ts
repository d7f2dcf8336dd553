import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, repoRoot } from './load-config';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-config-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });
const messageOf = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe('configuration', () => {
  it('has working defaults', () => {
    expect(load()).toMatchObject({
      dataDir,
      host: '127.0.0.1',
      port: 8080,
      appUrl: 'http://127.0.0.1:8080',
      appName: 'Aerie',
      appKey: undefined,
      databaseUrl: undefined,
      mail: { url: undefined, from: 'Aerie <no-reply@localhost>' },
      recaptcha: { enabled: false, verifyUrl: 'https://www.google.com/recaptcha/api/siteverify' },
      apiClientRateLimit: 720,
      apiApplicationRateLimit: 240,
      totpWindow: 4,
      trustProxy: false,
      daemon: { port: 8081, sftpPort: 2022, runtime: 'process' },
      webDist: join(repoRoot, 'apps/web/dist'),
    });
  });

  it.each([
    ['abc', 'PORT: must be a whole number between 0 and 65535 (got "abc")'],
    ['70000', 'PORT: must be a whole number between 0 and 65535 (got "70000")'],
    ['-1', 'PORT: must be a whole number between 0 and 65535 (got "-1")'],
  ])('names PORT and the reason for %s', (port, expected) => {
    expect(messageOf({ PORT: port })).toBe(`Invalid configuration:\n  - ${expected}`);
  });

  it('lists every bad variable at once, without echoing secrets', () => {
    const message = messageOf({
      DATABASE_URL: 'oracle://db',
      RECAPTCHA_ENABLED: 'maybe',
      APP_KEY: 'hunter2',
      MAIL_URL: 'http://mail',
    });
    expect(message).toContain('DATABASE_URL: must be a postgres://… or mysql://… URL');
    expect(message).toContain('RECAPTCHA_ENABLED: must be true or false (got "maybe")');
    expect(message).toContain('APP_KEY: must be "base64:" followed by 32 random bytes in base64');
    expect(message).toContain('MAIL_URL: must be an smtp:// or smtps:// URL');
    expect(message).not.toContain('hunter2');
  });

  it('reads RUNTIME as process, process-unsafe or docker, and refuses anything else', () => {
    expect(load({ RUNTIME: 'Docker' }).daemon.runtime).toBe('docker');
    expect(load({ RUNTIME: 'process-unsafe' }).daemon.runtime).toBe('process-unsafe');
    expect(messageOf({ RUNTIME: 'podman' })).toBe(
      'Invalid configuration:\n  - RUNTIME: must be process, process-unsafe or docker (got "podman")',
    );
  });

  it("reads the schedules' time zone and task limit (UTC and 10 by default)", () => {
    expect(load()).toMatchObject({ timezone: 'UTC', scheduleTaskLimit: 10 });
    expect(load({ APP_TIMEZONE: 'Europe/Berlin', SCHEDULE_TASK_LIMIT: '25' })).toMatchObject({
      timezone: 'Europe/Berlin',
      scheduleTaskLimit: 25,
    });
    expect(messageOf({ APP_TIMEZONE: 'Mars/Olympus' })).toBe(
      'Invalid configuration:\n  - APP_TIMEZONE: must be an IANA time zone such as UTC or Europe/Berlin (got "Mars/Olympus")',
    );
    expect(messageOf({ SCHEDULE_TASK_LIMIT: '0' })).toContain(
      'SCHEDULE_TASK_LIMIT: must be a whole number from 1 to 9999',
    );
  });

  it('reads the backup settings (Pterodactyl’s names and defaults)', () => {
    expect(load().backups).toEqual({
      driver: 'wings',
      s3: null,
      maxPartSize: 5 * 1024 ** 3,
      presignedUrlLifespanSeconds: 3600,
      throttleLimit: 2,
      throttlePeriodSeconds: 600,
      pruneAgeMinutes: 360,
      rotateOldest: false,
    });
    expect(
      load({
        APP_BACKUP_DRIVER: 'S3',
        AWS_DEFAULT_REGION: 'eu-west-3',
        AWS_ACCESS_KEY_ID: 'id',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_BACKUPS_BUCKET: 'backups',
        AWS_ENDPOINT: 'https://s3.example.com',
        AWS_USE_PATH_STYLE_ENDPOINT: 'true',
        BACKUP_MAX_PART_SIZE: '104857600',
        BACKUP_PRESIGNED_URL_LIFESPAN: '30',
        BACKUP_THROTTLE_LIMIT: '5',
        BACKUP_THROTTLE_PERIOD: '0',
        BACKUP_PRUNE_AGE: '60',
        BACKUP_ROTATE_OLDEST: 'yes',
      }).backups,
    ).toEqual({
      driver: 's3',
      s3: {
        region: 'eu-west-3',
        bucket: 'backups',
        endpoint: 'https://s3.example.com',
        forcePathStyle: true,
        credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      },
      maxPartSize: 104857600,
      presignedUrlLifespanSeconds: 1800,
      throttleLimit: 5,
      throttlePeriodSeconds: 0,
      pruneAgeMinutes: 60,
      rotateOldest: true,
    });
    expect(messageOf({ APP_BACKUP_DRIVER: 's3' })).toContain(
      'AWS_BACKUPS_BUCKET: is required when APP_BACKUP_DRIVER is s3',
    );
    expect(messageOf({ APP_BACKUP_DRIVER: 'ftp' })).toContain('APP_BACKUP_DRIVER: must be wings');
    expect(messageOf({ BACKUP_MAX_PART_SIZE: '1024' })).toContain(
      'BACKUP_MAX_PART_SIZE: must be a whole number of bytes',
    );
    expect(messageOf({ AWS_SECRET_ACCESS_KEY: 'x', AWS_ENDPOINT: 'nope' })).not.toContain('"x"');
  });

  it('requires the reCAPTCHA keys when reCAPTCHA is on', () => {
    expect(messageOf({ RECAPTCHA_ENABLED: 'true' })).toContain(
      'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY are required when RECAPTCHA_ENABLED is true',
    );
  });

  it('reads DATA_DIR/.env, with the real environment winning', () => {
    writeFileSync(
      join(dataDir, '.env'),
      'PORT=9090\nAPP_NAME="My Panel"\n# a comment\nHOST=0.0.0.0\nMAIL_FROM=\n',
    );
    const config = load({ HOST: '127.0.0.2' });
    expect(config.port).toBe(9090);
    expect(config.appName).toBe('My Panel');
    expect(config.host).toBe('127.0.0.2');
    expect(config.appUrl).toBe('http://127.0.0.1:9090');
    // An empty value counts as unset.
    expect(config.mail.from).toBe('Aerie <no-reply@localhost>');
  });

  it('reports a bad value from .env the same way', () => {
    writeFileSync(join(dataDir, '.env'), 'API_CLIENT_RATELIMIT=lots\n');
    expect(messageOf({})).toContain('API_CLIENT_RATELIMIT: must be a whole number of requests per minute');
  });

  it('accepts database URLs for PostgreSQL and MySQL/MariaDB, and trims APP_URL', () => {
    expect(load({ DATABASE_URL: 'postgres://a:b@h:5432/d' }).databaseUrl).toBe('postgres://a:b@h:5432/d');
    expect(load({ DATABASE_URL: 'mysql://a:b@h:3306/d' }).databaseUrl).toBe('mysql://a:b@h:3306/d');
    expect(load({ APP_URL: 'https://panel.example.com/' }).appUrl).toBe('https://panel.example.com');
  });

  it('reads TRUST_PROXY as a flag or a list of proxies', () => {
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.0/8']);
    expect(load({ TRUST_PROXY: 'loopback, ::1, fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it('reads a number in TRUST_PROXY as proxy hops (0: none), and names a bad entry', () => {
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(messageOf({ TRUST_PROXY: '10.0.0.1, nginx' })).toBe(
      'Invalid configuration:\n  - TRUST_PROXY: must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDRs (not "nginx")',
    );
    expect(messageOf({ TRUST_PROXY: '10.0.0.0/33' })).toMatch(/TRUST_PROXY: .*not "10\.0\.0\.0\/33"/);
  });

  it('reads REDIS_URL (unset: state in memory) and REDIS_PREFIX', () => {
    expect(load().redis).toBeUndefined();
    expect(load({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379/2',
      prefix: 'aerie:',
    });
    expect(load({ REDIS_URL: 'rediss://r.example:6380', REDIS_PREFIX: 'panel-a:' }).redis?.prefix).toBe(
      'panel-a:',
    );
    expect(messageOf({ REDIS_URL: 'http://r.example' })).toMatch(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });
});
