import { applicationRequest, createAdminWithKey } from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import { type Actor, serverScenarioWithDaemon, signedIn } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
 * /api/client/servers/{server}/databases* on the real MariaDB and PostgreSQL (reference §7.2 "Databases"): what a
 * create makes works with its credentials, a rotation refuses the old password, a delete leaves nothing on the
 * host; the rules and their texts, the limit under parallel creates, a host that cannot be reached, who may do
 * what (owner, root admin, subuser with the permission 2xx; without it 403; stranger 404; another server's
 * database 404), include=password only with database.view_password, and a deleted server's databases dropped.
 */

const ALL = [
  'database.read',
  'database.create',
  'database.update',
  'database.delete',
  'database.view_password',
  'websocket.connect',
];

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let bearer: string;
/** A subuser with every database permission except view_password. */
let noPassword: Actor;
beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ALL);
  ({ bearer } = await createAdminWithKey(t.ctx));
  noPassword = await signedIn(t);
  await addSubuser(
    t.ctx,
    s.server,
    noPassword.user,
    ALL.filter((p) => p !== 'database.view_password'),
  );
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});

const url = (suffix = '', server = s.server) => `/api/client/servers/${server.uuid_short}/databases${suffix}`;
const create = (actor: Actor, body: Record<string, unknown>, server = s.server) =>
  actor.browser.post(url('', server), body);

async function setLimit(limit: number | null, server = s.server) {
  await t.db.updateTable('servers').set({ database_limit: limit }).where('id', '=', server.id).execute();
}

/** Drops what the tests made on the hosts (through the panel, as a user would). */
async function deleteAll() {
  const list = await s.owner.get(url());
  for (const item of list.json().data ?? []) {
    await s.owner.browser.send('DELETE', url(`/${item.attributes.id}`));
  }
}

describe('without any database host', () => {
  it('answers 400 NoSuitableDatabaseHostException, and the rules before it', async () => {
    await setLimit(5);
    const refused = await create(s.owner, { database: 'nohost', remote: '%' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toEqual({
      code: 'NoSuitableDatabaseHostException',
      status: '400',
      detail: 'No database host was found that meets the requirements for this server.',
    });
    expect((await s.owner.get(url())).json()).toEqual({ object: 'list', data: [] });
  });

  it('words every rule as the reference does', async () => {
    const cases: [Record<string, unknown>, [string, string, string][]][] = [
      [
        {},
        [
          ['database', 'required', 'The database field is required.'],
          ['remote', 'required', 'The remote field is required.'],
        ],
      ],
      [
        { database: 'a$', remote: "%'" },
        [
          ['database', 'alpha_dash', 'The database may only contain letters, numbers, and dashes.'],
          ['database', 'min', 'The database must be at least 3 characters.'],
          ['remote', 'regex', 'The remote format is invalid.'],
        ],
      ],
      [
        { database: 'x'.repeat(49), remote: '%' },
        [['database', 'max', 'The database may not be greater than 48 characters.']],
      ],
      [
        { database: 'x`; DROP DATABASE mysql; --', remote: '%' },
        [['database', 'alpha_dash', 'The database may only contain letters, numbers, and dashes.']],
      ],
      [
        { database: 'db.name', remote: "%' IDENTIFIED BY 'x" },
        [
          ['database', 'alpha_dash', 'The database may only contain letters, numbers, and dashes.'],
          ['remote', 'regex', 'The remote format is invalid.'],
        ],
      ],
    ];
    for (const [body, expected] of cases) {
      const response = await create(s.owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(
        response
          .json()
          .errors.map((e: { detail: string; meta: { source_field: string; rule: string } }) => [
            e.meta.source_field,
            e.meta.rule,
            e.detail,
          ]),
      ).toEqual(expected);
    }
  });

  it('checks the permission before the rules, and hides the server from strangers', async () => {
    expect((await create(s.limited, {})).statusCode).toBe(403);
    expect((await create(s.stranger, {})).statusCode).toBe(404);
    expect((await s.limited.get(url())).statusCode).toBe(403);
    expect((await s.stranger.get(url())).statusCode).toBe(404);
  });
});

describe.skipIf(skipWithoutHosts).each(testHostUrls.map((hostUrl) => [hostUrl.protocol, hostUrl]))(
  'on a %s host',
  (_name, hostUrl) => {
    const host = credentialsOf(hostUrl);
    let hostId: number;
    beforeAll(async () => {
      await t.db.deleteFrom('databases').execute();
      await t.db.deleteFrom('database_hosts').execute();
      hostId = await insertTestHost(t.ctx, host, { nodeId: s.node.id });
    });
    afterAll(async () => {
      await deleteAll();
      await t.db.deleteFrom('database_hosts').where('id', '=', hostId).execute();
    });
    beforeEach(async () => {
      await deleteAll();
      await setLimit(10);
    });

    it('creates a database its credentials open, rotates its password, and deletes it from the host', async () => {
      await t.db.deleteFrom('activity_logs').execute();
      const name = `game_${randomPart()}`;
      const created = await create(s.owner, { database: name, remote: '%' });
      expect(created.statusCode, created.body).toBe(200);
      const body = created.json();
      expect(body).toMatchObject({
        object: 'server_database',
        attributes: {
          host: { address: host.host, port: host.port },
          name: `s${s.server.id}_${name}`,
          connections_from: '%',
          max_connections: 0,
          relationships: { password: { object: 'database_password' } },
        },
      });
      const { id, username, relationships } = body.attributes;
      expect(id).toMatch(/^[A-Za-z0-9]{8,}$/);
      expect(username).toMatch(new RegExp(`^u${s.server.id}_[A-Za-z0-9]{10}$`));
      const password = relationships.password.attributes.password as string;
      expect(password).toHaveLength(24);
      const login = { database: body.attributes.name, username, password };
      await connectAs(host, login);
      const stored = await t.db.selectFrom('databases').select(['id', 'password']).executeTakeFirstOrThrow();
      expect(stored.password).not.toContain(password);
      expect(t.ctx.secretBox.open(stored.password)).toBe(password);

      // Listed without the password unless asked for; the numeric id works as well as the hashid.
      const listed = (await s.owner.get(url())).json();
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0].attributes.relationships).toBeUndefined();
      const withPassword = (await s.owner.get(url('?include=password'))).json();
      expect(withPassword.data[0].attributes.relationships.password.attributes.password).toBe(password);

      const rotated = await s.owner.browser.post(url(`/${stored.id}/rotate-password`));
      expect(rotated.statusCode, rotated.body).toBe(200);
      const next = rotated.json().attributes.relationships.password.attributes.password as string;
      expect(next).not.toBe(password);
      await expect(connectAs(host, login)).rejects.toThrow();
      await connectAs(host, { ...login, password: next });

      const deleted = await s.owner.browser.send('DELETE', url(`/${id}`));
      expect(deleted.statusCode).toBe(204);
      expect(await hostHas(host, login)).toEqual({ database: false, user: false });
      expect((await s.owner.get(url())).json().data).toEqual([]);

      const events = await t.db
        .selectFrom('activity_logs')
        .select(['event', 'properties', 'actor_id', 'server_id'])
        .where('event', 'like', 'server:database.%')
        .orderBy('id')
        .execute();
      expect(events.map((e) => [e.event, JSON.parse(e.properties).name, e.actor_id, e.server_id])).toEqual(
        ['create', 'rotate-password', 'delete'].map((verb) => [
          `server:database.${verb}`,
          `s${s.server.id}_${name}`,
          s.owner.user.id,
          s.server.id,
        ]),
      );
      await t.db.deleteFrom('activity_logs').execute();
    });

    it('shows the password only with database.view_password', async () => {
      const created = await create(noPassword, { database: `np_${randomPart()}`, remote: '10.0.%' });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().attributes.connections_from).toBe('10.0.%');
      expect(created.json().attributes.relationships.password).toEqual({
        object: 'null_resource',
        attributes: null,
      });
      const listed = (await noPassword.get(url('?include[]=password'))).json();
      expect(listed.data[0].attributes.relationships.password).toEqual({
        object: 'null_resource',
        attributes: null,
      });
      const rotated = await noPassword.browser.post(url(`/${created.json().attributes.id}/rotate-password`));
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json().attributes.relationships.password.object).toBe('null_resource');
      expect((await s.subuser.get(url('?include=password'))).json().data[0].attributes.relationships).toEqual(
        {
          password: { object: 'database_password', attributes: { password: expect.any(String) } },
        },
      );
    });

    it('refuses a name taken on the server (422), and a name that only looks like SQL is a name', async () => {
      const name = `dup_${randomPart()}`;
      expect((await create(s.owner, { database: name, remote: '%' })).statusCode).toBe(200);
      const again = await create(s.owner, { database: name, remote: '127.0.0.1' });
      expect(again.statusCode).toBe(422);
      expect(again.json().errors).toEqual([
        {
          code: 'ValidationException',
          status: '422',
          detail: 'The database name you have selected is already in use by this server.',
          meta: { source_field: 'database', rule: 'unique' },
        },
      ]);
      const tricky = `--${randomPart()}-_-`;
      const created = await create(s.owner, { database: tricky, remote: '127.0.0.1' });
      expect(created.statusCode, created.body).toBe(200);
      const { attributes } = created.json();
      await connectAs(host, {
        database: attributes.name,
        username: attributes.username,
        password: attributes.relationships.password.attributes.password,
      });
    });

    it('holds the limit: 0 refuses all, parallel creates at the limit never pass it', async () => {
      await setLimit(0);
      const none = await create(s.owner, { database: `zero_${randomPart()}`, remote: '%' });
      expect(none.statusCode).toBe(400);
      expect(none.json().errors[0]).toEqual({
        code: 'TooManyDatabasesException',
        status: '400',
        detail: 'Operation aborted: creating a new database would put this server over the defined limit.',
      });

      await setLimit(3);
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          create(s.owner, { database: `par${i}_${randomPart()}`, remote: '%' }),
        ),
      );
      const codes = responses.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 200, 200, 400, 400, 400, 400, 400]);
      for (const refused of responses.filter((r) => r.statusCode === 400)) {
        expect(refused.json().errors[0].code).toBe('TooManyDatabasesException');
      }
      expect((await s.owner.get(url())).json().data).toHaveLength(3);
      for (const made of responses.filter((r) => r.statusCode === 200)) {
        const { name, username } = made.json().attributes;
        expect(await hostHas(host, { database: name, username })).toEqual({ database: true, user: true });
      }

      // No limit at all (null) allows another.
      await setLimit(null);
      expect((await create(s.owner, { database: `nolimit_${randomPart()}`, remote: '%' })).statusCode).toBe(
        200,
      );
    });

    it('answers 502 when the host cannot be reached, and keeps nothing', async () => {
      const port = await closedPort();
      await t.db.updateTable('database_hosts').set({ port }).where('id', '=', hostId).execute();
      const creations = async () =>
        (
          await t.db
            .selectFrom('activity_logs')
            .select('id')
            .where('event', '=', 'server:database.create')
            .execute()
        ).length;
      const before = await creations();
      try {
        const name = `down_${randomPart()}`;
        const response = await create(s.owner, { database: name, remote: '%' });
        expect(response.statusCode).toBe(502);
        expect(response.json().errors[0]).toEqual({
          code: 'HttpException',
          status: '502',
          detail:
            'The database host could not complete this request, and nothing was changed. Please try again later.',
        });
        expect(await t.db.selectFrom('databases').select('id').execute()).toEqual([]);
        expect(await creations()).toBe(before);
      } finally {
        await t.db.updateTable('database_hosts').set({ port: host.port }).where('id', '=', hostId).execute();
      }
    });

    it('lets owner, root admin and subusers with the permission through; 403 without it; 404 to strangers and for another server’s database', async () => {
      const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
      await setLimit(5, other);
      const foreign = await create(s.owner, { database: `foreign_${randomPart()}`, remote: '%' }, other);
      expect(foreign.statusCode, foreign.body).toBe(200);
      const foreignId = foreign.json().attributes.id;
      const foreignRow = await t.db
        .selectFrom('databases')
        .select('id')
        .where('server_id', '=', other.id)
        .executeTakeFirstOrThrow();

      const lacking = async (permission: string) => {
        const actor = await signedIn(t);
        await addSubuser(
          t.ctx,
          s.server,
          actor.user,
          ALL.filter((p) => p !== permission),
        );
        return actor;
      };
      const withoutRead = await lacking('database.read');
      const withoutCreate = await lacking('database.create');
      const withoutUpdate = await lacking('database.update');
      const withoutDelete = await lacking('database.delete');

      for (const actor of [s.owner, s.admin, s.subuser]) {
        expect((await actor.get(url())).statusCode).toBe(200);
        const made = await create(actor, { database: `m_${randomPart()}`, remote: '%' });
        expect(made.statusCode, made.body).toBe(200);
        const id = made.json().attributes.id;
        expect((await actor.browser.post(url(`/${id}/rotate-password`))).statusCode).toBe(200);
        expect((await actor.browser.send('DELETE', url(`/${id}`))).statusCode).toBe(204);
      }

      const target = (await create(s.owner, { database: `t_${randomPart()}`, remote: '%' })).json().attributes
        .id;
      expect((await withoutRead.get(url())).statusCode).toBe(403);
      expect((await create(withoutCreate, { database: `x_${randomPart()}`, remote: '%' })).statusCode).toBe(
        403,
      );
      const denied = await withoutUpdate.browser.post(url(`/${target}/rotate-password`));
      expect(denied.statusCode).toBe(403);
      expect(denied.json().errors[0]).toEqual({
        code: 'AccessDeniedHttpException',
        status: '403',
        detail: 'This action is unauthorized.',
      });
      expect((await withoutDelete.browser.send('DELETE', url(`/${target}`))).statusCode).toBe(403);
      for (const actor of [s.limited]) {
        expect((await actor.get(url())).statusCode).toBe(403);
        expect((await actor.browser.post(url(`/${target}/rotate-password`))).statusCode).toBe(403);
      }
      for (const actor of [s.stranger]) {
        expect((await actor.get(url())).statusCode).toBe(404);
        expect((await create(actor, { database: 'abc', remote: '%' })).statusCode).toBe(404);
        expect((await actor.browser.post(url(`/${target}/rotate-password`))).statusCode).toBe(404);
        expect((await actor.browser.send('DELETE', url(`/${target}`))).statusCode).toBe(404);
      }
      // Another server's database, by hashid or numeric id: 404 to everyone, even its own owner, and kept.
      for (const id of [foreignId, String(foreignRow.id), 'notAnId1', '0', '99999999']) {
        for (const actor of [s.owner, s.admin, withoutUpdate, s.stranger]) {
          expect((await actor.browser.post(url(`/${id}/rotate-password`))).statusCode).toBe(404);
          expect((await actor.browser.send('DELETE', url(`/${id}`))).statusCode).toBe(404);
        }
      }
      const stillThere = foreign.json().attributes;
      expect(await hostHas(host, { database: stillThere.name, username: stillThere.username })).toEqual({
        database: true,
        user: true,
      });

      // Deleting that server (Application API) drops its databases on the host.
      const removed = await applicationRequest(t.app, bearer, 'DELETE', `servers/${other.id}`);
      expect(removed.statusCode, removed.body).toBe(204);
      expect(await hostHas(host, { database: stillThere.name, username: stillThere.username })).toEqual({
        database: false,
        user: false,
      });
      expect(
        await t.db.selectFrom('databases').select('id').where('server_id', '=', other.id).execute(),
      ).toEqual([]);
    });

    it('keeps a host with databases from being deleted', async () => {
      expect((await create(s.owner, { database: `keep_${randomPart()}`, remote: '%' })).statusCode).toBe(200);
      const refused = await applicationRequest(t.app, bearer, 'DELETE', `database-hosts/${hostId}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0]).toEqual({
        code: 'HasActiveServersException',
        status: '400',
        detail: 'Cannot delete a database host server that has active databases linked to it.',
      });
    });
  },
);
