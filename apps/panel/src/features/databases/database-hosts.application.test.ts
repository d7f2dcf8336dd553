import {
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount, madeWithKey } from '@aerie/panel/test/audit-entries';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestHost } from './testing-hosts';

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
let admin: { id: number; username: string };
beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer, admin } = await createAdminWithKey(t.ctx));
});

/** Who the audit entries of this file's changes name. */
const who = () => madeWithKey(admin, bearer);
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

  it.each(hosts.map((url) => [url.protocol, url]))(
    'records adding, changing and deleting a %s host once each, its password only as changed',
    async (_name, url) => {
      const created = await applicationRequest(t.app, bearer, 'POST', 'database-hosts', bodyFor(url));
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().attributes.id as number;
      const patch = (overrides: Record<string, unknown>) =>
        applicationRequest(t.app, bearer, 'PATCH', `database-hosts/${id}`, bodyFor(url, overrides));
      expect((await patch({ name: 'Renamed', password: '' })).statusCode).toBe(200);
      expect((await patch({ name: 'Renamed again' })).statusCode).toBe(200);
      expect((await applicationRequest(t.app, bearer, 'DELETE', `database-hosts/${id}`)).statusCode).toBe(
        204,
      );

      const shown = { id, host: url.hostname, port: Number(url.port), node: null };
      const name = bodyFor(url).name;
      const entries = await auditEntriesAbout(t.db, 'database_host', id);
      expect(entries).toEqual([
        {
          ...who(),
          action: 'database_host.create',
          before: null,
          after: expect.objectContaining({ ...shown, name, password: '[redacted]' }),
        },
        {
          ...who(),
          action: 'database_host.update',
          before: expect.objectContaining({ ...shown, name }),
          after: expect.objectContaining({ ...shown, name: 'Renamed' }),
        },
        {
          ...who(),
          action: 'database_host.update',
          before: expect.objectContaining({ name: 'Renamed' }),
          after: expect.objectContaining({ ...shown, name: 'Renamed again', password: '[redacted]' }),
        },
        {
          ...who(),
          action: 'database_host.delete',
          before: expect.objectContaining({ ...shown, name: 'Renamed again' }),
          after: null,
        },
      ]);
      // An empty password keeps the stored one: nothing to say about it.
      expect(entries[1]?.after).not.toHaveProperty('password');
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

describe('the admin audit log of database hosts, without a server to reach', () => {
  const unreachable = async (name: string) => ({
    driver: 'mysql' as const,
    host: '127.0.0.1',
    port: await closedPort(),
    username: 'root',
    password: name,
  });

  it('records the deletion of a host once, with the host as it was', async () => {
    const id = await insertTestHost(t.ctx, await unreachable('x'), { name: 'Audited host' });
    expect((await applicationRequest(t.app, bearer, 'DELETE', `database-hosts/${id}`)).statusCode).toBe(204);
    expect(await auditEntriesAbout(t.db, 'database_host', id)).toEqual([
      {
        ...who(),
        action: 'database_host.delete',
        before: expect.objectContaining({ id, name: 'Audited host', host: '127.0.0.1', driver: 'mysql' }),
        after: null,
      },
    ]);
  });

  it('records nothing for a host refused with 400, 422 or 404', async () => {
    const credentials = await unreachable('x');
    const id = await insertTestHost(t.ctx, credentials);
    const body = { name: 'Nowhere', ...credentials };
    const count = await auditEntryCount(t.db);

    expect((await applicationRequest(t.app, bearer, 'POST', 'database-hosts', body)).statusCode).toBe(400);
    expect((await applicationRequest(t.app, bearer, 'PATCH', `database-hosts/${id}`, body)).statusCode).toBe(
      400,
    );
    const invalid = { name: 'x', port: 70000 };
    expect((await applicationRequest(t.app, bearer, 'POST', 'database-hosts', invalid)).statusCode).toBe(422);
    const unknownNode = { ...body, node_id: 999_999 };
    expect(
      (await applicationRequest(t.app, bearer, 'PATCH', `database-hosts/${id}`, unknownNode)).statusCode,
    ).toBe(422);
    expect((await applicationRequest(t.app, bearer, 'PATCH', 'database-hosts/999999', body)).statusCode).toBe(
      404,
    );
    expect((await applicationRequest(t.app, bearer, 'DELETE', 'database-hosts/999999')).statusCode).toBe(404);

    expect(await auditEntryCount(t.db)).toBe(count);
  });
});
