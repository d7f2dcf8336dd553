import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import { createUser } from '@aerie/panel/features/users/create-user';
import { aerieBin } from '@aerie/panel/test/aerie-up-process';
import { closedPort } from '@aerie/panel/test/closed-port';
import { requireTestRedis, skipWithoutRedis, uniqueRedisPrefix } from '@aerie/panel/test/redis';
import { createTestDatabase, type TestDatabase } from '@aerie/panel/test/test-database';
import { createWebDistFixture } from '@aerie/panel/test/web-dist-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Two real panel processes (`aerie panel`) behind an imaginary load balancer: one PostgreSQL or MariaDB database
 * (AERIE_TEST_DATABASE_URL, the per-database passes of npm test) and one Redis (AERIE_TEST_REDIS_URL).
 */
const databaseServer = process.env.AERIE_TEST_DATABASE_URL;
if (!databaseServer && !skipWithoutRedis) {
  console.warn(
    'Skipping the two-panel test: it needs a shared database server (AERIE_TEST_DATABASE_URL, PostgreSQL or MariaDB)',
  );
}

interface Panel {
  url: string;
  stop(): Promise<void>;
}

async function startPanel(env: Record<string, string>): Promise<Panel> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aerie-replica-'));
  const port = await closedPort();
  const child: ChildProcess = spawn(process.execPath, [aerieBin, 'panel'], {
    env: {
      ...process.env,
      ...env,
      DATA_DIR: dataDir,
      WEB_DIST: createWebDistFixture(dataDir),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const found = /Aerie panel is running at (http:\/\/\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`aerie panel exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser over real HTTP that keeps cookies whichever panel answers, and echoes XSRF-TOKEN as axios does. */
class Client {
  readonly cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
    const xsrf = this.cookies.get('XSRF-TOKEN');
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async signIn(panel: Panel, user: string, password: string): Promise<Response> {
    await this.request(`${panel.url}/sanctum/csrf-cookie`);
    return this.request(`${panel.url}/auth/login`, { method: 'POST', body: { user, password } });
  }
}

describe.skipIf(skipWithoutRedis || !databaseServer)(
  'two panel processes on one database and one Redis',
  () => {
    let database: TestDatabase;
    let dataDir: string;
    let panels: [Panel, Panel];
    const people = {
      ann: { username: 'ann', email: 'ann@example.com', password: 'ann password 1' },
      bob: { username: 'bob', email: 'bob@example.com', password: 'bob password 1' },
    };

    beforeAll(async () => {
      const redisUrl = requireTestRedis();
      dataDir = mkdtempSync(join(tmpdir(), 'aerie-replicas-db-'));
      database = await createTestDatabase(dataDir);
      await migrateToLatest(database.db);
      for (const person of Object.values(people))
        await createUser(database.db, { ...person, rootAdmin: false });
      const env = {
        DATABASE_URL: database.url as string,
        APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: uniqueRedisPrefix(),
        API_CLIENT_RATELIMIT: '6',
      };
      panels = await Promise.all([startPanel(env), startPanel(env)]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all((panels ?? []).map((panel) => panel.stop()));
      await database?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('shares the sign-in throttle: failures on either panel add up', async () => {
      const [one, two] = panels;
      const attacker = new Client();
      // Five failures for ann from this address, spread over both panels: the sixth is refused on either.
      for (let i = 0; i < 5; i++) {
        const panel = i % 2 === 0 ? one : two;
        const response = await attacker.signIn(panel, 'ann', 'wrong');
        expect(response.status).toBe(400);
      }
      for (const panel of panels) {
        const refused = await attacker.signIn(panel, 'ann', people.ann.password);
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { errors: { detail: string }[] }).errors[0]?.detail).toMatch(
          /^Too many login attempts\. Please try again in \d+ seconds\.$/,
        );
      }
    });

    it('keeps a session made on one panel signed in on the other, within one shared API rate limit', async () => {
      const [one, two] = panels;
      const browser = new Client();
      const signedIn = await browser.signIn(one, 'bob', people.bob.password);
      expect(signedIn.status).toBe(200);

      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const response = await browser.request(`${(i % 2 === 0 ? two : one).url}/api/client/account`);
        statuses.push(response.status);
        if (response.status === 200) {
          expect(((await response.json()) as { attributes: { username: string } }).attributes.username).toBe(
            'bob',
          );
        }
      }
      // API_CLIENT_RATELIMIT=6 a minute per user, counted once for both panels.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);

      // Signing out on the second panel ends the session on the first.
      await browser.request(`${two.url}/`);
      const out = await browser.request(`${two.url}/auth/logout`, { method: 'POST' });
      expect(out.status).toBe(204);
      expect((await browser.request(`${one.url}/api/client/account`)).status).toBe(401);
    });
  },
);
