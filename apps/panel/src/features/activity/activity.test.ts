import { createHash } from 'node:crypto';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import { type Actor, serverScenario, signedIn } from '@aerie/panel/test/server-scenario';
import type { ActivityEvent } from '@aerie/shared/activity/activity-events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActivityService } from './activity.service';
import { parseActivityListQuery } from './activity-list.query';

/**
 * Reading the logs (reference §6 `activity_log`, §7.1, §7.2 Core): who sees which entries, what they see of
 * other people's, and the list's paging, filter, sort and include.
 */
// biome-ignore lint/suspicious/noExplicitAny: entries are read the way a client reads them.
type Entry = { attributes: Record<string, any> };

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenario>>;
let reader: Actor;

const url = (query = '') => `/api/client/servers/${s.server.uuid_short}/activity${query ? `?${query}` : ''}`;
const list = async (actor: Actor, query = '') => {
  const response = await actor.get(url(query));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Entry[]; meta: { pagination: Record<string, unknown> } };
};
const events = (body: { data: Entry[] }) => body.data.map((entry) => entry.attributes.event);

/** An entry about the scenario's server, by `actor`, at the clock's current time. */
const record = (
  actor: Actor | null,
  event: ActivityEvent,
  properties: Record<string, unknown> = {},
  ip = '203.0.113.9',
) =>
  t.ctx.activity.record(t.db, {
    event,
    actor: actor?.user ?? null,
    server: s.server,
    ip,
    isApi: false,
    properties,
  });

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['activity.read']);
  reader = s.subuser;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('activity_logs').execute();
});

describe('GET /servers/{server}/activity', () => {
  it('needs activity.read: 403 without it, 404 for a stranger', async () => {
    expect((await s.limited.get(url())).statusCode).toBe(403);
    expect((await s.stranger.get(url())).statusCode).toBe(404);
    expect((await s.owner.get(url())).statusCode).toBe(200);
  });

  it('answers activity_log objects, newest first, with the id a sha1 of the numeric one', async () => {
    const first = await record(s.owner, 'server:power.start');
    t.advanceClock(1000);
    await record(s.owner, 'server:power.stop');
    const body = await list(s.owner);
    expect(events(body)).toEqual(['server:power.stop', 'server:power.start']);
    expect(body.data[1]).toEqual({
      object: 'activity_log',
      attributes: {
        id: createHash('sha1').update(String(first)).digest('hex'),
        batch: null,
        event: 'server:power.start',
        is_api: false,
        ip: '203.0.113.9',
        description: null,
        properties: {},
        has_additional_metadata: false,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      },
    });
    expect(events(await list(s.owner, 'sort=timestamp'))).toEqual([
      'server:power.start',
      'server:power.stop',
    ]);
    expect(events(await list(s.owner, 'sort=-timestamp'))).toEqual([
      'server:power.stop',
      'server:power.start',
    ]);
  });

  it('shows the address only to its actor and root admins, and hides an ip property from anyone else', async () => {
    await record(s.owner, 'auth:success', { ip: '203.0.113.9', useragent: 'Firefox' });
    const own = (await list(s.owner)).data[0]?.attributes;
    expect(own).toMatchObject({ ip: '203.0.113.9', properties: { ip: '203.0.113.9', useragent: 'Firefox' } });
    const others = (await list(reader)).data[0]?.attributes;
    expect(others).toMatchObject({ ip: null, properties: { ip: '[hidden]', useragent: 'Firefox' } });
    const admin = (await list(s.admin)).data[0]?.attributes;
    expect(admin).toMatchObject({ ip: '203.0.113.9', properties: { ip: '[hidden]' } });
  });

  it('counts lists (a lone one as `count`), shows directories as /x/, says when there is more to see', async () => {
    await record(s.owner, 'server:file.delete', { directory: 'a//b', files: ['x', 'y', 'z'] });
    await record(s.owner, 'server:file.create-directory', { directory: '', name: 'mods' });
    await record(s.owner, 'server:subuser.update', { email: 'e@x', old: ['a'], new: ['a', 'b'] });
    const [update, folder, deleted] = (await list(s.owner, 'sort=-timestamp')).data.map((e) => e.attributes);
    expect(deleted?.properties).toEqual({ directory: '/a/b/', files: ['x', 'y', 'z'], count: 3 });
    expect(deleted?.has_additional_metadata).toBe(true);
    expect(folder?.properties).toEqual({ directory: '/', name: 'mods' });
    // "Created directory :directory:name" tells it all.
    expect(folder?.has_additional_metadata).toBe(false);
    expect(update?.properties).toEqual({
      email: 'e@x',
      old: ['a'],
      old_count: 1,
      new: ['a', 'b'],
      new_count: 2,
    });
  });

  it('includes the actor on request (a user object, or null_resource when there is none)', async () => {
    await record(null, 'server:power.kill');
    await record(reader, 'server:power.start');
    const body = await list(s.owner, 'include=actor&sort=timestamp');
    expect(body.data[0]?.attributes.relationships).toEqual({
      actor: { object: 'null_resource', attributes: null },
    });
    expect(body.data[1]?.attributes.relationships).toEqual({
      actor: {
        object: 'user',
        attributes: {
          uuid: reader.user.uuid,
          username: reader.user.username,
          email: reader.user.email,
          image: '',
          '2fa_enabled': false,
          created_at: expect.any(String),
        },
      },
    });
    expect((await list(s.owner, 'include[]=actor')).data[0]?.attributes.relationships).toBeDefined();
    expect((await list(s.owner)).data[0]?.attributes.relationships).toBeUndefined();
  });

  it('pages 25 at a time by default, at most 100, with Fractal’s pagination', async () => {
    for (let i = 0; i < 105; i++) await record(s.owner, 'server:console.command', { command: `c${i}` });
    const first = await list(s.owner);
    expect(first.data).toHaveLength(25);
    expect(first.meta.pagination).toMatchObject({
      total: 105,
      count: 25,
      per_page: 25,
      current_page: 1,
      total_pages: 5,
    });
    const capped = await list(s.owner, 'per_page=500');
    expect(capped.data).toHaveLength(100);
    expect(capped.meta.pagination).toMatchObject({ per_page: 100, total_pages: 2 });
    const last = await list(s.owner, 'per_page=100&page=2&sort=timestamp');
    expect(last.data.map((entry) => entry.attributes.properties.command)).toEqual([
      'c100',
      'c101',
      'c102',
      'c103',
      'c104',
    ]);
    expect(last.meta.pagination.links).toEqual({ previous: expect.stringContaining('page=1') });
  });

  it('filters on part of the event name, any case, several parts with commas', async () => {
    await record(s.owner, 'server:file.write', { file: 'a' });
    await record(s.owner, 'server:power.start');
    await record(s.owner, 'server:allocation.create', { allocation: '1.2.3.4:5' });
    expect(events(await list(s.owner, 'filter[event]=FILE'))).toEqual(['server:file.write']);
    expect(events(await list(s.owner, 'filter[event]=power,allocation&sort=timestamp'))).toEqual([
      'server:power.start',
      'server:allocation.create',
    ]);
    expect(events(await list(s.owner, 'filter[event]=50%25'))).toEqual([]);
  });

  it('refuses other filters and sorts with 400 and spatie’s wording', async () => {
    const filter = await s.owner.get(url('filter[ip]=1'));
    expect(filter.statusCode).toBe(400);
    expect(filter.json().errors[0]).toEqual({
      code: 'InvalidFilterQuery',
      status: '400',
      detail: 'Requested filter(s) `ip` are not allowed. Allowed filter(s) are `event`.',
    });
    const sort = await s.owner.get(url('sort=-id'));
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors[0]).toEqual({
      code: 'InvalidSortQuery',
      status: '400',
      detail: 'Requested sort(s) `id` is not allowed. Allowed sort(s) are `timestamp`.',
    });
  });

  it('never lists server:file.upload, and keeps to its own server', async () => {
    await record(s.owner, 'server:file.upload');
    await record(s.owner, 'server:file.write', { file: 'kept' });
    const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    await t.ctx.activity.record(t.db, {
      event: 'server:power.start',
      actor: s.owner.user,
      server: other,
      ip: '1.1.1.1',
      isApi: false,
    });
    expect(events(await list(s.owner))).toEqual(['server:file.write']);
  });

  it('shows root admins’ entries by default; APP_ACTIVITY_HIDE_ADMIN leaves out admins from outside', async () => {
    await record(s.admin, 'server:power.restart');
    await record(s.owner, 'server:power.start');
    const member = await signedIn(t, { rootAdmin: true });
    await addSubuser(t.ctx, s.server, member.user, ['activity.read']);
    await record(member, 'server:power.stop');
    await record(null, 'server:power.kill');
    expect(events(await list(reader, 'sort=timestamp'))).toEqual([
      'server:power.restart',
      'server:power.start',
      'server:power.stop',
      'server:power.kill',
    ]);
    const hiding = new ActivityService({ db: t.db, hideAdmin: true });
    const access = { server: { id: s.server.id, ownerId: s.owner.user.id } } as never;
    const { records, total } = await hiding.forServer(access, parseActivityListQuery({ sort: 'timestamp' }));
    expect(records.map((entry) => entry.event)).toEqual([
      'server:power.start',
      'server:power.stop',
      'server:power.kill',
    ]);
    expect(total).toBe(3);
  });
});

describe('GET /account/activity', () => {
  it('lists the entries about the account, not the server ones its user made', async () => {
    const person = await signedIn(t);
    await t.ctx.activity.record(t.db, {
      event: 'user:account.password-changed',
      actor: person.user,
      subjects: { user: person.user },
      ip: '198.51.100.1',
      isApi: false,
    });
    await t.ctx.activity.record(t.db, {
      event: 'server:power.start',
      actor: person.user,
      server: s.server,
      ip: '198.51.100.1',
      isApi: false,
    });
    const response = await person.get('/api/client/account/activity');
    expect(response.statusCode).toBe(200);
    // Their sign-in is about the account too.
    expect(events(response.json())).toEqual(['user:account.password-changed', 'auth:success']);
    expect(response.json().data[0].attributes.ip).toBe('198.51.100.1');
    expect(response.json().meta.pagination).toMatchObject({ total: 2, per_page: 25 });
    expect((await person.get('/api/client/account/activity?filter[events]=x')).statusCode).toBe(400);
  });

  it('answers 401 without a user', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/client/account/activity',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(401);
  });
});
