import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAerieEnvironment, freePort, isAlive } from '@aerie/panel/test/aerie-environment';
import { localDaemonToken, startAerieUp } from '@aerie/panel/test/aerie-up-process';
import type { TestDatabase } from '@aerie/panel/test/test-database';
import type { StatsResponse } from '@aerie/shared/servers/server-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: TestDatabase;
let env: Record<string, string>;
let remove: () => Promise<void>;
const groups: number[] = [];

beforeAll(async () => {
  ({ database, env, remove } = await createAerieEnvironment('aerie-up-restart-', {
    DAEMON_PORT: String(await freePort()),
    ADMIN_USERNAME: 'owner',
    ADMIN_PASSWORD: 'demo password 123',
  }));
});
afterAll(async () => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  // Removing the data directory also tells a holder left behind by a failed case to end its game.
  await remove?.();
});

/** `aerie up` leading a process group of its own, as under a terminal or a service manager. */
function up() {
  const started = startAerieUp(env, { detached: true });
  groups.push(started.pid as number);
  return started;
}

/** The panel's client API as the signed-in owner (GET only). */
async function signIn(url: string) {
  const page = await fetch(`${url}/auth/login`);
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await page.text())?.[1] ?? '';
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-csrf-token': csrf,
      cookie: page.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    },
    body: JSON.stringify({ user: 'owner', password: 'demo password 123' }),
  });
  expect(login.status).toBe(200);
  const session = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  return (path: string) =>
    fetch(`${url}${path}`, { headers: { accept: 'application/json', cookie: session.join('; ') } });
}

describe('aerie up: game servers outlive the panel and its daemon', { timeout: 180_000 }, () => {
  it('survive kill -9 of the whole tree and SIGTERM to the group, and the next aerie up drives them again', async () => {
    const first = up();
    await first.ready;
    const installed = async () =>
      Boolean(
        (await database.db.selectFrom('servers').select('installed_at').executeTakeFirst())?.installed_at,
      );
    await expect.poll(installed, { timeout: 90_000 }).toBe(true);
    const demo = await database.db
      .selectFrom('servers')
      .select(['uuid', 'uuid_short'])
      .executeTakeFirstOrThrow();
    const daemon = `http://127.0.0.1:${env.DAEMON_PORT}`;
    const headers = {
      authorization: `Bearer ${await localDaemonToken(database.db, env.DATA_DIR as string)}`,
      'content-type': 'application/json',
    };
    const daemonState = async () =>
      ((await (await fetch(`${daemon}/api/servers/${demo.uuid}`, { headers })).json()) as { state: string })
        .state;
    const start = await fetch(`${daemon}/api/servers/${demo.uuid}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'start' }),
    });
    expect(start.status).toBe(202);
    await expect.poll(daemonState, { timeout: 30_000 }).toBe('running');
    // The game's launcher, as its holder recorded it: the same process must come through every restart.
    const record = JSON.parse(
      readFileSync(join(env.DATA_DIR as string, 'daemon/run', `${demo.uuid}.json`), 'utf8'),
    ) as { leader: { pid: number } };
    const game = record.leader.pid;

    // A crash of everything at once: the panel, the supervisor and the daemon.
    process.kill(-(first.pid as number), 'SIGKILL');
    await first.exited;
    expect(isAlive(game)).toBe(true);

    const second = up();
    const get = await signIn(await second.ready);
    const panelState = async () =>
      ((await (await get(`/api/client/servers/${demo.uuid_short}/resources`)).json()) as StatsResponse)
        .attributes.current_state;
    await expect.poll(panelState, { timeout: 30_000 }).toBe('running');
    expect(isAlive(game)).toBe(true);

    // What a service manager sends to stop a service, twice for good measure.
    process.kill(-(second.pid as number), 'SIGTERM');
    process.kill(-(second.pid as number), 'SIGTERM');
    expect(await second.exited).toBe(0);
    expect(isAlive(game)).toBe(true);

    const third = up();
    const again = await signIn(await third.ready);
    const thirdState = async () =>
      ((await (await again(`/api/client/servers/${demo.uuid_short}/resources`)).json()) as StatsResponse)
        .attributes.current_state;
    await expect.poll(thirdState, { timeout: 30_000 }).toBe('running');
    const stop = await fetch(`${daemon}/api/servers/${demo.uuid}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(stop.status).toBe(202);
    await expect.poll(thirdState, { timeout: 30_000 }).toBe('offline');
    await expect.poll(() => isAlive(game), { timeout: 5000 }).toBe(false);
    expect(await third.stop()).toBe(0);
  });
});
