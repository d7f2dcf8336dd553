import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@aerie/panel/config/load-config';
import { ApiKeyService } from '@aerie/panel/features/api-keys/api-keys.service';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { createAerieEnvironment, isAlive } from '@aerie/panel/test/aerie-environment';
import { localDaemonToken, startAerieUp } from '@aerie/panel/test/aerie-up-process';
import type { TestDatabase } from '@aerie/panel/test/test-database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const aerie = join(repoRoot, 'bin/aerie.mjs');
let database: TestDatabase;
let env: Record<string, string>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ database, env, remove } = await createAerieEnvironment('aerie-cli-', { DAEMON_PORT: '0' }));
});
afterAll(async () => {
  await remove?.();
});

const run = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [aerie, ...args], {
    env: { ...process.env, ...env, ...extra },
    encoding: 'utf8',
  });

const startUp = (extra: Record<string, string> = {}) => startAerieUp({ ...env, ...extra });

// Each case starts real `aerie` processes; on a loaded 2-core machine that takes seconds.
describe('the aerie command', { timeout: 90_000 }, () => {
  it('says which setting is wrong and exits 1, without a stack trace', () => {
    const result = run(['migrate'], { PORT: 'eighty' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration:\n  - PORT: must be a whole number between 0 and 65535 (got "eighty")',
    );
  });

  it('refuses an unknown command with the usage', () => {
    const result = run(['launch']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown command "launch"');
    expect(result.stderr).toContain('user:create');
  });

  it('migrates, then creates users from flags and refuses duplicates', async () => {
    const migrate = run(['migrate']);
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain('Migrated: 0001-users-sessions-auth');

    const created = run([
      'user:create',
      '--email',
      'kim@example.com',
      '--username',
      'kim',
      '--password',
      'kim password 1',
      '--admin',
    ]);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created root admin "kim" <kim@example.com>.');
    const kim = await findUserByLogin(database.db, 'kim');
    expect(kim?.rootAdmin).toBe(true);

    const generated = run(['user:create', '--email=lee@example.com', '--username=lee']);
    expect(generated.status).toBe(0);
    expect(generated.stdout).toMatch(/Generated password \(shown only this once\): [A-Za-z0-9]{20}/);
    expect((await findUserByLogin(database.db, 'lee'))?.rootAdmin).toBe(false);

    const duplicate = run([
      'user:create',
      '--email',
      'KIM@example.com',
      '--username',
      'other',
      '--password',
      'x'.repeat(8),
    ]);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr.trim()).toBe('A user with that username or email already exists.');

    const missing = run(['user:create', '--username', 'nobody']);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe('Missing --email.');
  });

  it('prints an application key for a root admin with key:create --application', async () => {
    const created = run(['key:create', '--application', '--user', 'kim', '--access', 'servers=rw,nodes=r']);
    expect(created.status, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^ptla_[A-Za-z0-9]{43}$/);
    expect(created.stderr).toContain('shown only this once');
    const { key, user } = await new ApiKeyService({ db: database.db, clock: () => new Date() }).authenticate(
      token,
    );
    expect(user.username).toBe('kim');
    expect(key.access).toMatchObject({ servers: 3, nodes: 1, users: 0, eggs: 0 });

    const notAdmin = run(['key:create', '--application', '--user', 'lee']);
    expect(notAdmin.status).toBe(1);
    expect(notAdmin.stderr.trim()).toBe('"lee" is not a root admin: application keys act as one.');
    const badAccess = run(['key:create', '--application', '--user', 'kim', '--access', 'servers=all']);
    expect(badAccess.stderr.trim()).toBe('Unknown access "all" for servers (none, r or rw).');
  });

  it('runs `up`: serves the panel and a daemon, keeps the app key, and stops cleanly on Ctrl-C', async () => {
    const first = startUp();
    const url = await first.ready;
    const page = await fetch(`${url}/auth/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<meta name="csrf-token"');
    const daemonUrl = /Aerie daemon listening on (http:\/\/\S+)/.exec(first.output())?.[1];
    // The daemon answers the panel's token alone (Wings' scheme), which aerie up handed it.
    expect((await fetch(`${daemonUrl}/api/system`)).status).toBe(401);
    const token = await localDaemonToken(database.db, env.DATA_DIR as string);
    const system = await fetch(`${daemonUrl}/api/system`, { headers: { authorization: `Bearer ${token}` } });
    expect(await system.json()).toMatchObject({ version: '0.1.0', os: 'linux' });
    // Users exist from the previous test, so no first admin is created.
    expect(first.output()).not.toContain('Created the first root admin');
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('Aerie stopped.');
    await expect(fetch(`${daemonUrl}/api/system`)).rejects.toThrow();

    const key = readFileSync(join(env.DATA_DIR as string, 'app.key'), 'utf8');
    const second = startUp();
    await second.ready;
    expect(second.output()).not.toContain('Generated a new app key');
    expect(await second.stop()).toBe(0);
    expect(readFileSync(join(env.DATA_DIR as string, 'app.key'), 'utf8')).toBe(key);
  });

  it('stops its daemon when `up` is killed outright (kill -9 leaves no daemon holding the port)', async () => {
    const up = startUp();
    await up.ready;
    const daemonUrl = /Aerie daemon listening on (http:\/\/\S+)/.exec(up.output())?.[1];
    const [daemonPid] = childrenOf(up.pid as number);
    expect(daemonPid).toBeDefined();
    process.kill(up.pid as number, 'SIGKILL');
    try {
      await expect.poll(() => isAlive(daemonPid as number), { timeout: 20_000, interval: 250 }).toBe(false);
      await expect(fetch(`${daemonUrl}/api/system`)).rejects.toThrow();
    } finally {
      // A daemon that outlived its `up` must not outlive the test run too.
      if (isAlive(daemonPid as number)) process.kill(daemonPid as number, 'SIGKILL');
    }
  });
});

/** Pids whose parent is `pid`, from /proc (field 4 of stat, after the parenthesised name). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}
