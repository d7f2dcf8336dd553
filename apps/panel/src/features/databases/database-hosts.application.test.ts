import {
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Real database servers to add as hosts: `AERIE_TEST_DATABASE_HOSTS`, e.g.
 * `mysql://aerie:aerie@127.0.0.1:3306,postgres://aerie:aerie@127.0.0.1:5432` (.ci/run sets it). Without it these
 * tests are skipped, except under CI=true, where they fail.
 */
const hosts = (process.env.AERIE_TEST_DATABASE_HOSTS ?? '')
  .split(',')
  .filter(Boolean)
  .map((text) => new URL(text));
const skip = hosts.length === 0 && process.env.CI !== 'true';

let t: TestApp;
let bearer: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer } = await createAdminWithKey(t.ctx));
});
afterAll(() => t.close());

const bodyFor = (url: URL, overrides: Record<string, unknown> = {}) => ({
  name: `${url.protocol.replace(':', '')} host`,
  driver: url.protocol === 'postgres:' ? 'postgres' : 'mysql',
  host: url.hostname,
  port: Number(url.port),
  username: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
  ...overrides,
});

describe.skipIf(skip)('/api/application/database-hosts on real database servers', () => {
  it.each(hosts.map((url) => [url.protocol, url]))(
    'adds a %s host after connecting to it, never shows its password, and deletes it',
    async (_name, url) => {
      const created = await applicationRequest(t.app, bearer, 'POST', 'database-hosts', bodyFor(url));
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json();
      expect(body.attributes).toMatchObject({ host: url.hostname, port: Number(url.port), node: null });
      expect(Object.keys(body.attributes)).not.toContain('password');
      const stored = await t.db
        .selectFrom('database_hosts')
        .select('password')
        .where('id', '=', body.attributes.id)
        .executeTakeFirstOrThrow();
      expect(t.ctx.secretBox.open(stored.password)).toBe(decodeURIComponent(url.password));

      // PATCH without a password keeps the stored one (the connection check passes with it).
      const renamed = await applicationRequest(
        t.app,
        bearer,
        'PATCH',
        `database-hosts/${body.attributes.id}`,
        bodyFor(url, { name: 'Renamed', password: '' }),
      );
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().attributes.name).toBe('Renamed');

      const wrong = await applicationRequest(
        t.app,
        bearer,
        'POST',
        'database-hosts',
        bodyFor(url, { password: 'not-the-password' }),
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors[0].detail).toMatch(
        /^There was an error while trying to connect to the host or while executing a query: ".+"$/,
      );

      expect(
        (await applicationRequest(t.app, bearer, 'DELETE', `database-hosts/${body.attributes.id}`))
          .statusCode,
      ).toBe(204);
      expect(
        (await applicationRequest(t.app, bearer, 'GET', `database-hosts/${body.attributes.id}`)).statusCode,
      ).toBe(404);
    },
  );
});

describe('/api/application/database-hosts without a server to reach', () => {
  it('refuses a host nothing listens on, and saves nothing', async () => {
    const port = await closedPort();
    const response = await applicationRequest(t.app, bearer, 'POST', 'database-hosts', {
      name: 'Nowhere',
      host: '127.0.0.1',
      port,
      username: 'root',
      password: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].code).toBe('DisplayException');
    expect(
      await t.db.selectFrom('database_hosts').select('id').where('name', '=', 'Nowhere').execute(),
    ).toEqual([]);
  });

  it('answers 422 for bad fields and 403 without the database_hosts bit', async () => {
    const invalid = await applicationRequest(t.app, bearer, 'POST', 'database-hosts', {
      name: 'x',
      port: 70000,
      username: 'u'.repeat(40),
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The host field is required.',
      'The port must be between 1 and 65535.',
      'The username may not be greater than 32 characters.',
    ]);
    const { admin } = await createAdminWithKey(t.ctx);
    const noBit = await createApplicationBearer(t.ctx, admin, { database_hosts: 0 });
    expect((await applicationRequest(t.app, noBit, 'GET', 'database-hosts')).statusCode).toBe(403);
  });
});
