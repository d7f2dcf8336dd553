import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, openSftp } from '@aerie/daemon/sftp/testing/sftp-stand';
import { appKeyFile, decodeAppKey } from '@aerie/panel/crypto/app-key';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { createAerieEnvironment, freePort } from '@aerie/panel/test/aerie-environment';
import { startAerieUp } from '@aerie/panel/test/aerie-up-process';
import type { TestDatabase } from '@aerie/panel/test/test-database';
import type {
  ServerListResponse,
  StatsResponse,
  WebsocketCredentialsResponse,
} from '@aerie/shared/servers/server-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: TestDatabase;
let env: Record<string, string>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ database, env, remove } = await createAerieEnvironment('aerie-up-servers-', {
    // A real port: the panel hands the demo server to the local daemon and asks it for resources.
    DAEMON_PORT: String(await freePort()),
    DAEMON_SFTP_PORT: String(await freePort()),
    ADMIN_USERNAME: 'owner',
    ADMIN_PASSWORD: 'demo password 123',
    // The panel's secrets, which the daemon must not be handed; and what it should get of the environment.
    AWS_SECRET_ACCESS_KEY: 'aws-secret-for-the-panel-only',
    MAIL_URL: 'smtp://mailer:mail-secret@127.0.0.1:1',
    SOME_OTHER_SECRET: 'nobody listed me',
    DAEMON_ALLOWED_ORIGINS: 'https://panel.example.com',
    LANG: 'C.UTF-8',
    TZ: 'Europe/Paris',
  }));
});
afterAll(async () => {
  await remove?.();
});

const startUp = () => startAerieUp(env);

/** Signs in over HTTP like the SPA and returns a GET that carries the session. */
async function signIn(url: string) {
  const page = await fetch(`${url}/auth/login`);
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await page.text())?.[1] ?? '';
  const cookies = () => page.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-csrf-token': csrf,
      cookie: cookies().join('; '),
    },
    body: JSON.stringify({ user: 'owner', password: 'demo password 123' }),
  });
  expect(login.status).toBe(200);
  const session = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  return (path: string) =>
    fetch(`${url}${path}`, { headers: { accept: 'application/json', cookie: session.join('; ') } });
}

/** Environment of the `aerie up` process's child that serves the daemon (read from /proc: Linux only). */
function daemonChildEnv(upPid: number): Record<string, string> {
  const children = readdirSync(`/proc/${upPid}/task`).flatMap((task) =>
    readFileSync(`/proc/${upPid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
  );
  for (const pid of children) {
    const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    const env = Object.fromEntries(
      entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
    if (env.DAEMON_PORT) return env;
  }
  throw new Error(`no daemon child under ${upPid}`);
}

/** Waits until `check` returns a value, for at most `ms`. */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('aerie up and the demo server', { timeout: 120_000 }, () => {
  it('creates one demo server on the first boot only and installs it through the local daemon', async () => {
    const first = startUp();
    const url = await first.ready;
    const get = await signIn(url);
    expect(first.output()).toContain('Created the demo server "Demo Server" on the local node.');

    // The daemon child gets the local node's credentials, the panel URL, its data folder and the runtime.
    const node = await database.db.selectFrom('nodes').selectAll().executeTakeFirstOrThrow();
    const secretBox = new SecretBox(
      decodeAppKey(readFileSync(appKeyFile(env.DATA_DIR as string), 'utf8'), 'app.key'),
    );
    expect(daemonChildEnv(first.pid as number)).toMatchObject({
      DAEMON_PORT: env.DAEMON_PORT,
      DAEMON_SFTP_PORT: env.DAEMON_SFTP_PORT,
      DAEMON_TOKEN_ID: node.daemon_token_id,
      DAEMON_TOKEN: secretBox.open(node.daemon_token),
      PANEL_URL: url,
      DAEMON_DATA_DIR: join(env.DATA_DIR as string, 'daemon'),
      RUNTIME: 'process',
    });
    // Of the panel's own environment, only what the daemon reads or any process needs (cli/daemon-environment.ts).
    const daemonEnv = daemonChildEnv(first.pid as number);
    for (const secret of [
      'ADMIN_PASSWORD',
      'ADMIN_USERNAME',
      'AWS_SECRET_ACCESS_KEY',
      'MAIL_URL',
      'SOME_OTHER_SECRET',
      'DATABASE_URL',
      'WEB_DIST',
      'PORT',
    ]) {
      expect(daemonEnv, secret).not.toHaveProperty(secret);
    }
    expect(Object.values(daemonEnv).join('\n')).not.toMatch(
      /aws-secret|mail-secret|nobody listed me|demo password/,
    );
    expect(daemonEnv).toMatchObject({
      PATH: process.env.PATH,
      DAEMON_ALLOWED_ORIGINS: 'https://panel.example.com',
      LANG: 'C.UTF-8',
      TZ: 'Europe/Paris',
      LOG_LEVEL: 'warn',
      DATA_DIR: env.DATA_DIR,
      AERIE_SUPERVISOR_PID: String(first.pid),
    });

    // Once the daemon answers, the panel hands it the demo server, which shows as installing until the daemon
    // reports back on /api/remote.
    await eventually(() =>
      first.output().includes('Installing "Demo Server" on Local node.') ? true : undefined,
    );
    const list = (await (await get('/api/client')).json()) as ServerListResponse;
    expect(list.data.map((item) => item.attributes.name)).toEqual(['Demo Server']);
    const demo = list.data[0]?.attributes as ServerListResponse['data'][number]['attributes'];
    expect(demo).toMatchObject({
      server_owner: true,
      node: 'Local node',
      sftp_details: { ip: '127.0.0.1', port: Number(env.DAEMON_SFTP_PORT) },
      limits: { memory: 512, disk: 1024, cpu: 100 },
    });
    expect(demo.relationships.allocations.data[0]?.attributes).toMatchObject({
      ip: '127.0.0.1',
      port: 25565,
      is_default: true,
    });
    const installed = await eventually(async () => {
      const current = await database.db
        .selectFrom('servers')
        .select(['status', 'installed_at'])
        .executeTakeFirstOrThrow();
      return current.installed_at !== null ? current : undefined;
    }, 60_000);
    expect(installed.status).toBeNull();
    // The install script ran in the daemon's folder for the server.
    expect(readdirSync(join(env.DATA_DIR as string, 'daemon/volumes', demo.uuid))).toContain(
      'demo-server.mjs',
    );
    // The local daemon serves it over SFTP on DAEMON_SFTP_PORT, logins decided by this panel.
    expect(first.output()).toContain(`Aerie SFTP server listening on 127.0.0.1:${env.DAEMON_SFTP_PORT}`);
    const sftp = await openSftp(Number(env.DAEMON_SFTP_PORT), {
      username: `owner.${demo.identifier}`,
      password: 'demo password 123',
    });
    expect(
      (await call<{ filename: string }[]>(sftp.sftp, 'readdir', '/')).map((entry) => entry.filename),
    ).toContain('demo-server.mjs');
    sftp.end();
    const server = await get(`/api/client/servers/${demo.identifier}`);
    expect(
      ((await server.json()) as { attributes: { is_installing: boolean } }).attributes.is_installing,
    ).toBe(false);
    const stats = (await (
      await get(`/api/client/servers/${demo.identifier}/resources`)
    ).json()) as StatsResponse;
    expect(stats.attributes.current_state).toBe('offline');
    const socket = (await (
      await get(`/api/client/servers/${demo.identifier}/websocket`)
    ).json()) as WebsocketCredentialsResponse;
    expect(socket.data.socket).toBe(`ws://127.0.0.1:${env.DAEMON_PORT}/api/servers/${demo.uuid}/ws`);
    expect(await first.stop()).toBe(0);

    const second = startUp();
    const again = await signIn(await second.ready);
    expect(second.output()).not.toContain('Created the demo server');
    const after = (await (await again('/api/client')).json()) as ServerListResponse;
    expect(after.data.map((item) => item.attributes.uuid)).toEqual([demo.uuid]);
    expect(await second.stop()).toBe(0);
    expect(await database.db.selectFrom('servers').select('id').execute()).toHaveLength(1);
    expect(await database.db.selectFrom('nodes').select('id').execute()).toHaveLength(1);
  });
});
