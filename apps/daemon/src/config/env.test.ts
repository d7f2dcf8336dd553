import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig } from './env';

const token = { DAEMON_TOKEN_ID: 'abc123', DAEMON_TOKEN: 'x'.repeat(32) };

describe('loadDaemonConfig', () => {
  it('applies the defaults of the contract', () => {
    expect(loadDaemonConfig(token)).toEqual({
      host: '127.0.0.1',
      port: 8081,
      sftpPort: 2022,
      tokenId: 'abc123',
      token: 'x'.repeat(32),
      panelUrl: 'http://127.0.0.1:8080',
      allowedOrigins: [],
      allowedMounts: [],
      dataDirectory: path.resolve('data/daemon'),
      backupDirectory: path.resolve('data/daemon/backups'),
      uploadLimitMb: 100,
      transferLimitMibPerSecond: 0,
      runtime: 'process',
      gameNetworkAllow: [],
      pull: { allow: [], maxBytes: 10 * 1024 ** 3, timeoutMs: 12 * 3600_000, idleTimeoutMs: 60_000 },
      activitySendIntervalMs: 60_000,
      admission: { maxEventLoopDelayMs: 500, maxInFlight: 256, reservedInFlight: 64 },
      logLevel: 'info',
    });
    expect(loadDaemonConfig({ ...token, DATA_DIR: '/srv/aerie' }).dataDirectory).toBe('/srv/aerie/daemon');
    expect(loadDaemonConfig({ ...token, DATA_DIR: '/srv/aerie' }).backupDirectory).toBe(
      '/srv/aerie/daemon/backups',
    );
    expect(loadDaemonConfig({ ...token, DAEMON_BACKUP_DIR: '/mnt/backups' }).backupDirectory).toBe(
      '/mnt/backups',
    );
    expect(
      loadDaemonConfig({
        ...token,
        DAEMON_DATA_DIR: '/var/lib/aerie-daemon',
        PANEL_URL: 'https://panel.example.com/',
        DAEMON_ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com/',
        RUNTIME: 'docker',
        DAEMON_UPLOAD_LIMIT_MB: '512',
        DAEMON_TRANSFER_LIMIT_MB: '20',
      }),
    ).toMatchObject({
      uploadLimitMb: 512,
      transferLimitMibPerSecond: 20,
      dataDirectory: '/var/lib/aerie-daemon',
      backupDirectory: '/var/lib/aerie-daemon/backups',
      panelUrl: 'https://panel.example.com',
      allowedOrigins: ['https://a.example.com', 'https://b.example.com'],
      runtime: 'docker',
    });
  });

  it('names every missing or bad variable, without echoing the token', () => {
    expect(() => loadDaemonConfig({})).toThrow(
      /DAEMON_TOKEN_ID: is required: the node token id[\s\S]*DAEMON_TOKEN: is required: the node token the panel issued/,
    );
    let message = '';
    try {
      loadDaemonConfig({
        DAEMON_TOKEN_ID: 'a',
        DAEMON_TOKEN: 'short-secret',
        RUNTIME: 'lxc',
        PANEL_URL: 'panel',
        DAEMON_PORT: '99999',
        DAEMON_SFTP_PORT: '-1',
        DAEMON_UPLOAD_LIMIT_MB: '0',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('DAEMON_TOKEN: must be the node token (at least 16 characters)');
    expect(message).not.toContain('short-secret');
    expect(message).toContain('RUNTIME: must be process, process-unsafe or docker (got "lxc")');
    expect(message).toContain('PANEL_URL: must be an http:// or https:// URL');
    expect(message).toContain('DAEMON_UPLOAD_LIMIT_MB: must be a whole number of MiB, at least 1 (got "0")');
    expect(message).toContain('DAEMON_PORT: must be a whole number between 0 and 65535 (got "99999")');
    expect(message).toContain('DAEMON_SFTP_PORT: must be a whole number between 0 and 65535 (got "-1")');
  });

  it('reads the remote pull settings (DAEMON_PULL_*), refusing what is not a network or a number', () => {
    const { pull } = loadDaemonConfig({
      ...token,
      DAEMON_PULL_ALLOW: '127.0.0.1/32, fd00::/8',
      DAEMON_PULL_MAX_MB: '0',
      DAEMON_PULL_TIMEOUT_SECONDS: '600',
      DAEMON_PULL_IDLE_TIMEOUT_SECONDS: '5',
    });
    expect(pull.allow.map(([network, bits]) => `${network.toString()}/${bits}`)).toEqual([
      '127.0.0.1/32',
      'fd00::/8',
    ]);
    expect(pull).toMatchObject({ maxBytes: 0, timeoutMs: 600_000, idleTimeoutMs: 5000 });
    expect(() =>
      loadDaemonConfig({ ...token, DAEMON_PULL_ALLOW: 'intranet', DAEMON_PULL_IDLE_TIMEOUT_SECONDS: '0' }),
    ).toThrow(
      /DAEMON_PULL_ALLOW: "intranet" is not an IP address or network[\s\S]*DAEMON_PULL_IDLE_TIMEOUT_SECONDS: must be a whole number of seconds, at least 1/,
    );
  });

  it('reads how often the activity outbox ships (DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS), at least a second', () => {
    expect(
      loadDaemonConfig({ ...token, DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS: '5' }).activitySendIntervalMs,
    ).toBe(5000);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => loadDaemonConfig({ ...token, DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS: bad })).toThrow(
        /DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS: must be a whole number of seconds, at least 1/,
      );
    }
  });

  it('reads the allowed mounts (DAEMON_ALLOWED_MOUNTS) as absolute paths, refusing relative ones', () => {
    expect(
      loadDaemonConfig({ ...token, DAEMON_ALLOWED_MOUNTS: '/mnt/maps/, /srv/shared/../cache' }).allowedMounts,
    ).toEqual(['/mnt/maps', '/srv/cache']);
    expect(() => loadDaemonConfig({ ...token, DAEMON_ALLOWED_MOUNTS: '/mnt/maps,maps' })).toThrow(
      /DAEMON_ALLOWED_MOUNTS: must be absolute host paths, separated by commas/,
    );
  });
});
