import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { toWireDate } from '@aerie/panel/db/dialect';
import { verifyPassword } from '@aerie/panel/features/auth/password-hash';
import {
  accessDeniedJson,
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
  notFoundJson,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount, madeWithKey } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from './user';
import { findUserById } from './users.repository';

let t: TestApp;
let bearer: string;
let admin: User;
beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, bearer } = await createAdminWithKey(t.ctx));
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  applicationRequest(t.app, bearer, method, url, body);

/** What upstream's UserTransformer gives for `user`. */
const attributesOf = (user: User) => ({
  id: user.id,
  external_id: user.externalId,
  uuid: user.uuid,
  username: user.username,
  email: user.email,
  first_name: user.nameFirst,
  last_name: user.nameLast,
  language: user.language,
  root_admin: user.rootAdmin,
  '2fa': user.useTotp,
  created_at: toWireDate(user.createdAt),
  updated_at: toWireDate(user.updatedAt),
  admin_role_id: user.adminRoleId,
});

const reload = async (id: number) => (await findUserById(t.db, id)) as User;

let sequence = 0;
const newBody = (overrides: Record<string, unknown> = {}) => {
  sequence++;
  return {
    username: `buyer${sequence}`,
    email: `buyer${sequence}@billing.test`,
    first_name: 'Billing',
    last_name: `Customer ${sequence}`,
    ...overrides,
  };
};

const validation = (detail: string, field: string, rule: string) => ({
  code: 'ValidationException',
  status: '422',
  detail,
  meta: { source_field: field, rule },
});

describe('GET /api/application/users', () => {
  it('lists users with exact attributes in order and the pagination meta (upstream testGetUsers)', async () => {
    const own = await buildTestApp();
    try {
      const { admin: first, bearer: ownBearer } = await createAdminWithKey(own.ctx);
      const { user: second } = await createTestUser(own.ctx);
      const response = await applicationRequest(own.app, ownBearer, 'GET', 'users?per_page=60');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({
        object: 'list',
        data: [
          { object: 'user', attributes: attributesOf(first) },
          { object: 'user', attributes: attributesOf(second) },
        ],
        meta: {
          pagination: { total: 2, count: 2, per_page: 60, current_page: 1, total_pages: 1, links: [] },
        },
      });
      expect(Object.keys(body.data[0].attributes)).toEqual(Object.keys(attributesOf(first)));
      expect(body.data[0].attributes['2fa']).toBe(false);

      const paged = (await applicationRequest(own.app, ownBearer, 'GET', 'users?per_page=1&page=2')).json();
      expect(paged.data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual([
        second.id,
      ]);
      expect(paged.meta.pagination).toMatchObject({ total: 2, count: 1, per_page: 1, current_page: 2 });
      expect(paged.meta.pagination.links.previous).toContain('page=1');
    } finally {
      await own.close();
    }
  });

  it('filters by email, uuid, username and external_id (case-insensitive substring, comma = or)', async () => {
    const one = await call('POST', 'users', newBody({ email: 'Filter.One@Shop.test', external_id: 'WH-77' }));
    const two = await call(
      'POST',
      'users',
      newBody({ email: 'filter.two@shop.test', username: 'filtertwo' }),
    );
    const ids = async (query: string) =>
      (await call('GET', `users?${query}`))
        .json()
        .data.map((item: { attributes: { id: number } }) => item.attributes.id);
    const first = one.json().attributes.id;
    const second = two.json().attributes.id;
    expect(await ids('filter[email]=FILTER.ONE@shop')).toEqual([first]);
    expect(await ids('filter[email]=filter.one,filter.two')).toEqual([first, second]);
    // Partial, as upstream: the billing modules take data[0] of a substring match.
    expect(await ids('filter[email]=shop.test')).toEqual([first, second]);
    expect(await ids('filter[username]=FILTERTW')).toEqual([second]);
    expect(await ids('filter[external_id]=wh-7')).toEqual([first]);
    expect(await ids(`filter[uuid]=${one.json().attributes.uuid.slice(4, 20)}`)).toEqual([first]);
    expect(await ids('filter[email]=100%25')).toEqual([]);
  });

  it('sorts by id and uuid, both directions', async () => {
    const all = (await call('GET', 'users?sort=-id&per_page=500'))
      .json()
      .data.map((item: { attributes: { id: number; uuid: string } }) => item.attributes);
    const byId = [...all].sort((a, b) => b.id - a.id);
    expect(all).toEqual(byId);
    const uuids = (await call('GET', 'users?sort=uuid&per_page=500'))
      .json()
      .data.map((item: { attributes: { uuid: string } }) => item.attributes.uuid);
    expect(uuids).toEqual([...uuids].sort());
  });

  it('refuses unknown filters and sorts with 400', async () => {
    const filter = await call('GET', 'users?filter[name]=x');
    expect(filter.statusCode).toBe(400);
    expect(filter.json().errors[0]).toMatchObject({
      code: 'InvalidFilterQuery',
      detail:
        'Requested filter(s) `name` are not allowed. Allowed filter(s) are `email, uuid, username, external_id`.',
    });
    const sort = await call('GET', 'users?sort=email');
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors[0].code).toBe('InvalidSortQuery');
  });

  it('answers 403 to a key without read on users', async () => {
    const none = await createApplicationBearer(t.ctx, admin, { users: 0 });
    const response = await applicationRequest(t.app, none, 'GET', 'users');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(accessDeniedJson);
  });
});

describe('GET /api/application/users/{id} and users/external/{external_id}', () => {
  it('returns one user: exactly object and attributes', async () => {
    const { user } = await createTestUser(t.ctx);
    const response = await call('GET', `users/${user.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ object: 'user', attributes: attributesOf(user) });
  });

  it('answers 404 for users/nil and an unknown id', async () => {
    for (const path of ['users/nil', 'users/999999', 'users/0', 'users/1.5']) {
      const response = await call('GET', path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual(notFoundJson);
    }
  });

  it('answers 403 to a key without read on users', async () => {
    const none = await createApplicationBearer(t.ctx, admin, { users: 0 });
    for (const path of [`users/${admin.id}`, 'users/external/x']) {
      expect((await applicationRequest(t.app, none, 'GET', path)).json()).toEqual(accessDeniedJson);
    }
  });

  it('finds a user by external id, exact match only; 404 when none', async () => {
    const created = (await call('POST', 'users', newBody({ external_id: 'client-4211' }))).json();
    const response = await call('GET', 'users/external/client-4211');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'user',
      attributes: attributesOf(await reload(created.attributes.id)),
    });
    for (const path of ['users/external/client-421', 'users/external/nil']) {
      const missing = await call('GET', path);
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json()).toEqual(notFoundJson);
    }
  });

  it("includes the user's servers (as server items) with read on servers, null_resource without", async () => {
    const { user: owner } = await createTestUser(t.ctx);
    const node = await createTestNode(t.ctx);
    const egg = await importDemoEgg(t.ctx, 'Users include nest');
    const server = await createTestServer(t.ctx, { owner, node, eggId: egg.id });
    const response = await call('GET', `users/${owner.id}?include=servers`);
    expect(response.statusCode).toBe(200);
    const servers = response.json().attributes.relationships.servers;
    expect(servers.object).toBe('list');
    expect(servers.data).toHaveLength(1);
    expect(servers.data[0]).toMatchObject({
      object: 'server',
      attributes: { id: server.id, user: owner.id },
    });
    const noServers = await createApplicationBearer(t.ctx, admin, { servers: 0 });
    const gated = await applicationRequest(t.app, noServers, 'GET', `users/${owner.id}?include=servers`);
    expect(gated.json().attributes.relationships).toEqual({
      servers: { object: 'null_resource', attributes: null },
    });
  });
});

describe('POST /api/application/users', () => {
  it('creates a user: 201, item + meta.resource, username and email lower-cased', async () => {
    const response = await call(
      'POST',
      'users',
      newBody({
        username: 'New.Customer_1',
        email: 'New.Customer@Example.com',
        external_id: '77',
        root_admin: '1',
        language: 'en',
        password: 'a password of theirs ',
      }),
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['object', 'attributes', 'meta']);
    const user = await reload(body.attributes.id);
    expect(body).toEqual({
      object: 'user',
      attributes: attributesOf(user),
      meta: { resource: `http://localhost:80/api/application/users/${user.id}` },
    });
    expect(user).toMatchObject({
      username: 'new.customer_1',
      email: 'new.customer@example.com',
      externalId: '77',
      rootAdmin: true,
      language: 'en',
    });
    // The password is kept as sent (not trimmed) and hashed.
    expect(user.passwordHash).not.toContain('a password');
    expect(await verifyPassword(user.passwordHash, 'a password of theirs ')).toBe(true);
  });

  it('without a password: a random one, and a mail with a link to set it that works', async () => {
    const outbox = join(t.dataDir, 'mail');
    rmSync(outbox, { recursive: true, force: true });
    const response = await call('POST', 'users', newBody({ email: 'no.password@billing.test' }));
    expect(response.statusCode).toBe(201);
    await t.ctx.mailer.drain();
    const mails = existsSync(outbox)
      ? readdirSync(outbox).map((name) =>
          readFileSync(join(outbox, name), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '='),
        )
      : [];
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/^To: no\.password@billing\.test$/m);
    const token = /\/auth\/password\/reset\/([0-9a-f]{64})\?email=/.exec(mails[0] as string)?.[1];
    expect(token).toBeDefined();
    await t.ctx.passwordReset.reset({
      email: 'no.password@billing.test',
      token: token as string,
      password: 'chosen-password',
    });
    const user = await reload(response.json().attributes.id);
    expect(await verifyPassword(user.passwordHash, 'chosen-password')).toBe(true);
  });

  it('answers 422 with the reference messages', async () => {
    const required = await call('POST', 'users', {});
    expect(required.statusCode).toBe(422);
    expect(required.json().errors).toEqual([
      validation('The email field is required.', 'email', 'required'),
      validation('The username field is required.', 'username', 'required'),
      validation('The first name field is required.', 'first_name', 'required'),
      validation('The last name field is required.', 'last_name', 'required'),
    ]);

    const bad = await call(
      'POST',
      'users',
      newBody({
        email: 'not-an-email',
        username: '-bad name-',
        external_id: 12345,
        root_admin: 'yes',
        language: 'tlh',
        first_name: 'x'.repeat(192),
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([
      validation('The email must be a valid email address.', 'email', 'email'),
      validation('The Third Party Identifier must be a string.', 'external_id', 'string'),
      validation(
        'The username must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.',
        'username',
        'p_username',
      ),
      validation('The Root Administrator Status field must be true or false.', 'root_admin', 'boolean'),
      validation('The selected language is invalid.', 'language', 'in'),
      validation('The first name must be between 1 and 191 characters.', 'first_name', 'between'),
    ]);

    const short = await call('POST', 'users', newBody({ username: 'ab', external_id: 'x'.repeat(192) }));
    expect(short.json().errors).toEqual([
      validation('The Third Party Identifier may not be greater than 191 characters.', 'external_id', 'max'),
      validation(
        'The username must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.',
        'username',
        'p_username',
      ),
    ]);
  });

  it('refuses a numeric external id (WHMCS casts to string for this), named by its custom attribute', async () => {
    const response = await call('POST', 'users', newBody({ external_id: 123 }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      validation('The Third Party Identifier must be a string.', 'external_id', 'string'),
    ]);
  });

  it('answers 422 unique for a taken email, username (any case) or external id, and creates nothing', async () => {
    const body = newBody({ external_id: 'taken-ext' });
    expect((await call('POST', 'users', body)).statusCode).toBe(201);
    const before = (await call('GET', 'users?per_page=1')).json().meta.pagination.total;
    const again = await call('POST', 'users', {
      ...body,
      email: body.email.toUpperCase(),
      username: body.username.toUpperCase(),
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual([
      validation('The email has already been taken.', 'email', 'unique'),
      validation('The Third Party Identifier has already been taken.', 'external_id', 'unique'),
      validation('The username has already been taken.', 'username', 'unique'),
    ]);
    expect((await call('GET', 'users?per_page=1')).json().meta.pagination.total).toBe(before);
  });

  it('creates exactly one of several concurrent requests with the same email; the others get 422', async () => {
    const email = 'race@billing.test';
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        call('POST', 'users', newBody({ email, username: `racer${index}` })),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422, 422, 422, 422]);
    for (const answer of answers.filter((item) => item.statusCode === 422)) {
      expect(answer.json().errors).toEqual([
        validation('The email has already been taken.', 'email', 'unique'),
      ]);
    }
    const rows = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
  });

  it('answers 403 to a read-only key, before validation', async () => {
    const readOnly = await createApplicationBearer(t.ctx, admin, { users: 1 });
    const response = await applicationRequest(t.app, readOnly, 'POST', 'users', {});
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(accessDeniedJson);
  });
});

describe('PATCH /api/application/users/{id}', () => {
  it('updates every field sent and answers the re-read user (upstream testUpdateUser)', async () => {
    const created = (
      await call('POST', 'users', newBody({ external_id: 'patch-me', password: 'old-password' }))
    ).json().attributes;
    const response = await call('PATCH', `users/${created.id}`, {
      username: 'New.Test.Name',
      email: 'Patched@Example.com',
      first_name: 'New',
      last_name: 'Name',
    });
    expect(response.statusCode).toBe(200);
    const user = await reload(created.id);
    expect(response.json()).toEqual({ object: 'user', attributes: attributesOf(user) });
    expect(user).toMatchObject({
      username: 'new.test.name',
      email: 'patched@example.com',
      nameFirst: 'New',
      nameLast: 'Name',
      // Not sent: unchanged.
      externalId: 'patch-me',
      rootAdmin: false,
    });
    expect(await verifyPassword(user.passwordHash, 'old-password')).toBe(true);

    const more = await call('PATCH', `users/${created.id}`, {
      username: 'new.test.name',
      email: 'patched@example.com',
      first_name: 'New',
      last_name: 'Name',
      external_id: null,
      root_admin: true,
      password: 'new-password',
    });
    expect(more.statusCode).toBe(200);
    const after = await reload(created.id);
    expect(after).toMatchObject({ externalId: null, rootAdmin: true });
    expect(await verifyPassword(after.passwordHash, 'new-password')).toBe(true);
  });

  it("sets the user's language to any the panel ships, which their pages and mail then use", async () => {
    const created = (await call('POST', 'users', newBody({ language: 'pl' }))).json().attributes;
    expect(created.language).toBe('pl');
    const body = { username: created.username, email: created.email, first_name: 'A', last_name: 'B' };
    const response = await call('PATCH', `users/${created.id}`, { ...body, language: 'ar' });
    expect(response.json().attributes.language).toBe('ar');
    expect((await reload(created.id)).language).toBe('ar');
  });

  it('is a full update: required fields again; unique rules ignore the user itself', async () => {
    const { user } = await createTestUser(t.ctx);
    const partial = await call('PATCH', `users/${user.id}`, { first_name: 'Only' });
    expect(partial.statusCode).toBe(422);
    expect(
      partial.json().errors.map((error: { meta: { source_field: string } }) => error.meta.source_field),
    ).toEqual(['email', 'username', 'last_name']);
    const same = await call('PATCH', `users/${user.id}`, {
      username: user.username,
      email: user.email,
      first_name: 'Same',
      last_name: 'Values',
    });
    expect(same.statusCode).toBe(200);
    const taken = await call('PATCH', `users/${user.id}`, {
      username: user.username,
      email: admin.email,
      first_name: 'Same',
      last_name: 'Values',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual([validation('The email has already been taken.', 'email', 'unique')]);
  });

  it("ends the user's sessions when it sets a new password, not otherwise", async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const body = { username: user.username, email: user.email, first_name: 'A', last_name: 'B' };
    expect((await call('PATCH', `users/${user.id}`, body)).statusCode).toBe(200);
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
    expect((await call('PATCH', `users/${user.id}`, { ...body, password: 'another-one' })).statusCode).toBe(
      200,
    );
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
  });

  it('answers 404 for an unknown user and 403 to a read-only key', async () => {
    const missing = await call('PATCH', 'users/999999', newBody());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(notFoundJson);
    const readOnly = await createApplicationBearer(t.ctx, admin, { users: 1 });
    const refused = await applicationRequest(t.app, readOnly, 'PATCH', `users/${admin.id}`, {});
    expect(refused.json()).toEqual(accessDeniedJson);
  });
});

describe('DELETE /api/application/users/{id}', () => {
  it('deletes a user without servers: 204, row gone, sessions gone by cascade', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const response = await call('DELETE', `users/${user.id}`);
    expect(response.statusCode).toBe(204);
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
    expect(response.body).toBe('');
    expect(await findUserById(t.db, user.id)).toBeNull();
    expect((await call('DELETE', `users/${user.id}`)).json()).toEqual(notFoundJson);
  });

  it('accepts the `[]` body billing modules send', async () => {
    const { user } = await createTestUser(t.ctx);
    expect((await call('DELETE', `users/${user.id}`, [])).statusCode).toBe(204);
  });

  it('refuses while the user owns a server, and deletes nothing', async () => {
    const { user: owner } = await createTestUser(t.ctx);
    const node = await createTestNode(t.ctx);
    const egg = await importDemoEgg(t.ctx, 'Users test nest');
    const server = await createTestServer(t.ctx, { owner, node, eggId: egg.id });
    const response = await call('DELETE', `users/${owner.id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'DisplayException',
          status: '400',
          detail:
            'Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.',
        },
      ],
    });
    expect(await findUserById(t.db, owner.id)).not.toBeNull();
    expect(
      await t.db.selectFrom('servers').select('id').where('id', '=', server.id).executeTakeFirst(),
    ).toBeDefined();
  });

  it('answers 403 to a read-only key and 404 for users/nil', async () => {
    const readOnly = await createApplicationBearer(t.ctx, admin, { users: 1 });
    const refused = await applicationRequest(t.app, readOnly, 'DELETE', `users/${admin.id}`);
    expect(refused.json()).toEqual(accessDeniedJson);
    expect((await call('DELETE', 'users/nil')).json()).toEqual(notFoundJson);
  });
});

describe('the admin audit log of users', () => {
  const who = () => madeWithKey(admin, bearer);

  it('records a creation, an update and a deletion once each, a password only as changed', async () => {
    const created = await call('POST', 'users', newBody({ password: 'Correct horse 1' }));
    expect(created.statusCode).toBe(201);
    const id = created.json().attributes.id as number;
    const updated = await call('PATCH', `users/${id}`, {
      ...newBody({ password: 'Battery staple 2', root_admin: false }),
      first_name: 'Renamed',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call('DELETE', `users/${id}`)).statusCode).toBe(204);

    const entries = await auditEntriesAbout(t.db, 'user', id);
    expect(entries.map((entry) => entry.action)).toEqual(['user.create', 'user.update', 'user.delete']);
    for (const entry of entries) expect(entry).toMatchObject(who());
    const [create, update, remove] = entries;
    expect(create?.before).toBeNull();
    expect(create?.after).toMatchObject({ id, first_name: 'Billing', password: '[redacted]' });
    expect(update?.before).toMatchObject({ first_name: 'Billing' });
    expect(update?.before).not.toHaveProperty('password');
    expect(update?.after).toMatchObject({ first_name: 'Renamed', password: '[redacted]' });
    expect(remove).toMatchObject({ before: { id, first_name: 'Renamed' }, after: null });
    expect(JSON.stringify(entries)).not.toMatch(/Correct horse|Battery staple/);
  });

  it('records nothing when a change is refused', async () => {
    const taken = (await call('POST', 'users', newBody())).json().attributes;
    const { user: owner } = await createTestUser(t.ctx);
    const node = await createTestNode(t.ctx);
    const egg = await importDemoEgg(t.ctx, 'Audit test nest');
    await createTestServer(t.ctx, { owner, node, eggId: egg.id });
    const count = await auditEntryCount(t.db);
    expect((await call('POST', 'users', newBody({ email: taken.email }))).statusCode).toBe(422);
    expect((await call('PATCH', `users/${owner.id}`, newBody({ username: taken.username }))).statusCode).toBe(
      422,
    );
    expect((await call('PATCH', 'users/999999', newBody())).statusCode).toBe(404);
    expect((await call('DELETE', `users/${owner.id}`)).statusCode).toBe(400);
    expect(await auditEntryCount(t.db)).toBe(count);
  });
});
