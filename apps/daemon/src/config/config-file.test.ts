import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig } from './env';

const directory = mkdtempSync(path.join(tmpdir(), 'aerie-daemon-config-'));
let sequence = 0;
const file = (content: unknown) => {
  const name = path.join(directory, `config-${++sequence}.json`);
  writeFileSync(name, typeof content === 'string' ? content : JSON.stringify(content));
  return name;
};

const TOKEN = 't'.repeat(64);

/** A node's configuration document as GET /api/application/nodes/{id}/configuration serves it. */
const document = (env: Record<string, unknown>) => ({
  debug: false,
  uuid: '5f1c7a3e-0000-4000-8000-000000000001',
  token_id: 'ignoredWingsKey1',
  token: 'ignored',
  api: { host: '0.0.0.0', port: 1, ssl: { enabled: false }, upload_limit: 1 },
  system: { data: '/var/lib/pterodactyl/volumes', sftp: { bind_port: 2022 } },
  allowed_mounts: ['/mnt/maps'],
  remote: 'https://ignored.example.com',
  aerie: { env },
});

describe('DAEMON_CONFIG: the node configuration document', () => {
  it("maps the document's aerie.env block to the daemon settings", () => {
    const config = loadDaemonConfig({
      DAEMON_CONFIG: file(
        document({
          DAEMON_HOST: '0.0.0.0',
          DAEMON_PORT: '8443',
          DAEMON_SFTP_PORT: 2222,
          DAEMON_TOKEN_ID: 'abcdefghijklmnop',
          DAEMON_TOKEN: TOKEN,
          PANEL_URL: 'https://panel.example.com',
          DAEMON_UPLOAD_LIMIT_MB: 256,
          DAEMON_TRANSFER_LIMIT_MB: 50,
          SOMETHING_NEWER: 'ignored',
        }),
      ),
      DAEMON_DATA_DIR: '/srv/aerie-daemon',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8443,
      sftpPort: 2222,
      tokenId: 'abcdefghijklmnop',
      token: TOKEN,
      panelUrl: 'https://panel.example.com',
      allowedOrigins: [],
      allowedMounts: ['/mnt/maps'],
      dataDirectory: '/srv/aerie-daemon',
      backupDirectory: '/srv/aerie-daemon/backups',
      uploadLimitMb: 256,
      transferLimitMibPerSecond: 50,
      runtime: 'process',
      gameNetworkAllow: [],
      pull: { allow: [], maxBytes: 10 * 1024 ** 3, timeoutMs: 12 * 3600_000, idleTimeoutMs: 60_000 },
      activitySendIntervalMs: 60_000,
      admission: { maxEventLoopDelayMs: 500, maxInFlight: 256, reservedInFlight: 64 },
      logLevel: 'info',
    });
  });

  it('lets variables set in the environment win over the file', () => {
    const config = loadDaemonConfig({
      DAEMON_CONFIG: file(
        document({ DAEMON_HOST: '0.0.0.0', DAEMON_PORT: '8443', DAEMON_TOKEN_ID: 'id', DAEMON_TOKEN: TOKEN }),
      ),
      DAEMON_HOST: '10.0.0.5',
      DAEMON_PORT: '9000',
      DAEMON_TOKEN_ID: '',
    });
    expect(config).toMatchObject({ host: '10.0.0.5', port: 9000, tokenId: 'id' });
  });

  it('says what is wrong with the file, without echoing it', () => {
    expect(() => loadDaemonConfig({ DAEMON_CONFIG: path.join(directory, 'missing.json') })).toThrow(
      /DAEMON_CONFIG: cannot read .*missing\.json \(ENOENT\)/,
    );
    const secret = `{"token": "${TOKEN}"`;
    expect(() => loadDaemonConfig({ DAEMON_CONFIG: file(secret) })).toThrow(/is not valid JSON/);
    try {
      loadDaemonConfig({ DAEMON_CONFIG: file(secret) });
    } catch (error) {
      expect((error as Error).name).toBe('DaemonConfigError');
      expect((error as Error).message).not.toContain(TOKEN);
    }
    expect(() => loadDaemonConfig({ DAEMON_CONFIG: file({ token: TOKEN }) })).toThrow(
      /has no "aerie.env" block/,
    );
    // The file's values go through the same checks as the environment's.
    expect(() =>
      loadDaemonConfig({ DAEMON_CONFIG: file(document({ DAEMON_TOKEN_ID: 'id', DAEMON_TOKEN: 'short' })) }),
    ).toThrow(/DAEMON_TOKEN: must be the node token/);
  });
});
