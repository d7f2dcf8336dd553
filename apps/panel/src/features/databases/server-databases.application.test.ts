import {
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount, madeWithKey } from '@aerie/panel/test/audit-entries';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectAs,
  credentialsOf,
  hostHas,
  insertTestHost,
  randomPart,
  skipWithoutHosts,
  testHostUrls,
} from './testing-hosts';

/**
 * /api/application/servers/{id}/databases* (reference application API §3.6) on the real MariaDB and PostgreSQL:
 * create (201 + meta.resource), list, view, reset-password (204), delete; ids numeric or hashid and scoped to the
 * server; the `r_server_databases` bit; includes `password` and `host` (gated by `database_hosts`); the server's
 * `databases` include.
 */

let t: TestApp;
let bearer: string;
let admin: Awaited<ReturnType<typeof createAdminWithKey>>['admin'];
let server: { id: number };
let otherServer: { id: number };
beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer, admin } = await createAdminWithKey(t.ctx));
  const node = await createTestNode(t.ctx);
  const egg = await importDemoEgg(t.ctx);
  server = await createTestServer(t.ctx, { owner: admin, node, eggId: egg.id, databaseLimit: 5 });
  otherServer = await createTestServer(t.ctx, { owner: admin, node, eggId: egg.id, databaseLimit: 5 });
});
afterAll(() => t.close());

const path = (suffix = '', id = server.id) => `servers/${id}/databases${suffix}`;

/** Who the audit entries of this file's changes name. */
const who = () => madeWithKey(admin, bearer);

describe('/api/application/servers/{id}/databases without a reachable host', () => {
  it('answers 422 for bad fields with upstream’s attribute names, and for an unknown host', async () => {
    const invalid = await applicationRequest(t.app, bearer, 'POST', path(), {
      database: 'bad name',
      remote: 'example.com',
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The Database Name may only contain letters, numbers, and dashes.',
      'The Remote Connection String format is invalid.',
      'The Database Host Server ID field is required.',
    ]);
    const unknownHost = await applicationRequest(t.app, bearer, 'POST', path(), {
      database: 'a',
      remote: '%',
      host: 999,
    });
    expect(unknownHost.statusCode).toBe(422);
    expect(unknownHost.json().errors[0].detail).toBe('The selected Database Host Server ID is invalid.');
  });

  it('answers 403 without the server_databases bit (read for GET, write for the rest), 404 for an unknown server', async () => {
    const { admin } = await createAdminWithKey(t.ctx);
    const none = await createApplicationBearer(t.ctx, admin, { server_databases: 0 });
    const read = await createApplicationBearer(t.ctx, admin, { server_databases: 1 });
    expect((await applicationRequest(t.app, none, 'GET', path())).statusCode).toBe(403);
    expect((await applicationRequest(t.app, read, 'GET', path())).statusCode).toBe(200);
    expect((await applicationRequest(t.app, read, 'POST', path(), { database: 'a' })).statusCode).toBe(403);
    expect((await applicationRequest(t.app, read, 'DELETE', path('/1'))).statusCode).toBe(403);
    expect((await applicationRequest(t.app, bearer, 'GET', path('', 99999))).statusCode).toBe(404);
    expect((await applicationRequest(t.app, bearer, 'GET', path('/12345'))).statusCode).toBe(404);
  });

  it('records nothing for a change refused with 422 or 404', async () => {
    const count = await auditEntryCount(t.db);
    const body = { database: 'a', remote: '%', host: 999 };
    expect((await applicationRequest(t.app, bearer, 'POST', path(), body)).statusCode).toBe(422);
    expect((await applicationRequest(t.app, bearer, 'POST', path('', 99999), body)).statusCode).toBe(404);
    expect((await applicationRequest(t.app, bearer, 'POST', path('/12345/reset-password'))).statusCode).toBe(
      404,
    );
    expect((await applicationRequest(t.app, bearer, 'DELETE', path('/12345'))).statusCode).toBe(404);
    expect(await auditEntryCount(t.db)).toBe(count);
  });
});

describe.skipIf(skipWithoutHosts).each(testHostUrls.map((url) => [url.protocol, url]))(
  '/api/application/servers/{id}/databases on a %s host',
  (_name, url) => {
    const host = credentialsOf(url);
    let hostId: number;
    beforeAll(async () => {
      hostId = await insertTestHost(t.ctx, host);
    });

    it('creates, lists, shows, resets the password of and deletes a server’s database', async () => {
      const name = `app_${randomPart()}`;
      const created = await applicationRequest(t.app, bearer, 'POST', path('?include=password'), {
        database: name,
        remote: '127.0.0.1',
        host: hostId,
      });
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json();
      expect(body).toMatchObject({
        object: 'server_database',
        attributes: {
          server: server.id,
          host: hostId,
          database: `s${server.id}_${name}`,
          remote: '127.0.0.1',
          max_connections: 0,
          relationships: { password: { object: 'database_password' } },
        },
        meta: { resource: `http://localhost:80/api/application/${path(`/${body.attributes.id}`)}` },
      });
      const id = body.attributes.id as number;
      const login = {
        database: body.attributes.database,
        username: body.attributes.username,
        password: body.attributes.relationships.password.attributes.password,
      };
      await connectAs(host, login);

      const listed = await applicationRequest(t.app, bearer, 'GET', path('?include=host'));
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data).toHaveLength(1);
      expect(listed.json().data[0].attributes.relationships.host).toMatchObject({
        object: 'database_host',
        attributes: { id: hostId },
      });
      expect(listed.json().meta).toBeUndefined();

      const hashid = t.ctx.databaseIds.encode(id);
      for (const ref of [String(id), hashid]) {
        const shown = await applicationRequest(t.app, bearer, 'GET', path(`/${ref}`));
        expect(shown.statusCode).toBe(200);
        expect(shown.json().attributes.id).toBe(id);
        // Another server's path does not reach it.
        expect(
          (await applicationRequest(t.app, bearer, 'GET', path(`/${ref}`, otherServer.id))).statusCode,
        ).toBe(404);
      }

      const { admin } = await createAdminWithKey(t.ctx);
      const noHosts = await createApplicationBearer(t.ctx, admin, { database_hosts: 0 });
      const gated = await applicationRequest(t.app, noHosts, 'GET', path(`/${id}?include=host,password`));
      expect(gated.json().attributes.relationships).toEqual({
        host: { object: 'null_resource', attributes: null },
        password: { object: 'database_password', attributes: { password: login.password } },
      });

      const serverWithDatabases = await applicationRequest(
        t.app,
        bearer,
        'GET',
        `servers/${server.id}?include=databases`,
      );
      expect(serverWithDatabases.json().attributes.relationships.databases).toMatchObject({
        object: 'list',
        data: [{ object: 'databases', attributes: { id, database: login.database } }],
      });
      const noDatabasesBit = await createApplicationBearer(t.ctx, admin, { server_databases: 0 });
      expect(
        (
          await applicationRequest(t.app, noDatabasesBit, 'GET', `servers/${server.id}?include=databases`)
        ).json().attributes.relationships.databases,
      ).toEqual({ object: 'null_resource', attributes: null });

      const reset = await applicationRequest(t.app, bearer, 'POST', path(`/${id}/reset-password`));
      expect(reset.statusCode).toBe(204);
      expect(reset.body).toBe('');
      await expect(connectAs(host, login)).rejects.toThrow();
      const after = await applicationRequest(t.app, bearer, 'GET', path(`/${id}?include=password`));
      const next = after.json().attributes.relationships.password.attributes.password;
      await connectAs(host, { ...login, password: next });

      const duplicate = await applicationRequest(t.app, bearer, 'POST', path(), {
        database: name,
        remote: '%',
        host: hostId,
      });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json().errors[0]).toEqual({
        code: 'DuplicateDatabaseNameException',
        status: '400',
        detail: 'A database with that name already exists for this server.',
      });

      expect((await applicationRequest(t.app, bearer, 'DELETE', path(`/${id}`))).statusCode).toBe(204);
      expect(await hostHas(host, login)).toEqual({ database: false, user: false });
      expect((await applicationRequest(t.app, bearer, 'GET', path(`/${id}`))).statusCode).toBe(404);
      // The Application API logs nothing in the server's activity, as upstream.
      expect(
        await t.db
          .selectFrom('activity_logs')
          .select('id')
          .where('event', 'like', 'server:database.%')
          .execute(),
      ).toEqual([]);
    });

    it('records creating, resetting the password of and deleting a database once each; the password only as changed', async () => {
      const created = await applicationRequest(t.app, bearer, 'POST', path(), {
        database: `audit_${randomPart()}`,
        remote: '%',
        host: hostId,
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id, database, username } = created.json().attributes;
      expect(
        (await applicationRequest(t.app, bearer, 'POST', path(`/${id}/reset-password`))).statusCode,
      ).toBe(204);
      expect((await applicationRequest(t.app, bearer, 'DELETE', path(`/${id}`))).statusCode).toBe(204);

      const shown = { id, server: server.id, host: hostId, database, username, remote: '%' };
      const entries = await auditEntriesAbout(t.db, 'server_database', id);
      expect(entries).toEqual([
        {
          ...who(),
          action: 'database.create',
          before: null,
          after: { ...shown, max_connections: 0, password: '[redacted]' },
        },
        {
          ...who(),
          action: 'database.reset_password',
          before: { ...shown, max_connections: 0 },
          after: { ...shown, max_connections: 0, password: '[redacted]' },
        },
        { ...who(), action: 'database.delete', before: { ...shown, max_connections: 0 }, after: null },
      ]);
    });

    it('records nothing for a database refused on the panel’s side (duplicate name, over the limit)', async () => {
      const name = `dup_${randomPart()}`;
      const body = { database: name, remote: '%', host: hostId };
      const created = await applicationRequest(t.app, bearer, 'POST', path('', otherServer.id), body);
      expect(created.statusCode, created.body).toBe(201);
      const count = await auditEntryCount(t.db);
      expect(
        (await applicationRequest(t.app, bearer, 'POST', path('', otherServer.id), body)).statusCode,
      ).toBe(400);
      await t.db.updateTable('servers').set({ database_limit: 0 }).where('id', '=', otherServer.id).execute();
      try {
        const over = { ...body, database: `over_${randomPart()}` };
        expect(
          (await applicationRequest(t.app, bearer, 'POST', path('', otherServer.id), over)).statusCode,
        ).toBe(400);
      } finally {
        await t.db
          .updateTable('servers')
          .set({ database_limit: 5 })
          .where('id', '=', otherServer.id)
          .execute();
      }
      expect(await auditEntryCount(t.db)).toBe(count);
      const id = created.json().attributes.id as number;
      expect(
        (await applicationRequest(t.app, bearer, 'DELETE', path(`/${id}`, otherServer.id))).statusCode,
      ).toBe(204);
    });

    it('holds the server’s limit', async () => {
      await t.db.updateTable('servers').set({ database_limit: 0 }).where('id', '=', server.id).execute();
      try {
        const refused = await applicationRequest(t.app, bearer, 'POST', path(), {
          database: `over_${randomPart()}`,
          remote: '%',
          host: hostId,
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().errors[0].code).toBe('TooManyDatabasesException');
      } finally {
        await t.db.updateTable('servers').set({ database_limit: 5 }).where('id', '=', server.id).execute();
      }
    });
  },
);
