import {
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let bearer: string;
let admin: { id: number; username: string };
let sequence = 0;

beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer, admin } = await createAdminWithKey(t.ctx));
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  applicationRequest(t.app, bearer, method, url, body, { ip: '203.0.113.7' });

const shortCode = () => `audit-${++sequence}`;

describe('the admin audit log of a location', () => {
  it('records its creation, each change with before and after, and its deletion, once each', async () => {
    const short = shortCode();
    const created = await call('POST', 'locations', { short, long: 'First' });
    expect(created.statusCode).toBe(201);
    const id = created.json().attributes.id as number;
    const renamed = shortCode();
    expect((await call('PATCH', `locations/${id}`, { short: renamed, long: 'Second' })).statusCode).toBe(200);
    expect((await call('DELETE', `locations/${id}`)).statusCode).toBe(204);

    const keyIdentifier = bearer.slice(0, 16);
    const who = { actorId: admin.id, actorName: admin.username, apiKey: keyIdentifier, ip: '203.0.113.7' };
    expect(await auditEntriesAbout(t.db, 'location', id)).toEqual([
      {
        ...who,
        action: 'location.create',
        before: null,
        after: { id, short, long: 'First' },
        createdAt: expect.any(Date),
      },
      {
        ...who,
        action: 'location.update',
        before: { id, short, long: 'First' },
        after: { id, short: renamed, long: 'Second' },
        createdAt: expect.any(Date),
      },
      {
        ...who,
        action: 'location.delete',
        before: { id, short: renamed, long: 'Second' },
        after: null,
        createdAt: expect.any(Date),
      },
    ]);
  });

  it('records nothing for a change that fails', async () => {
    const taken = (await call('POST', 'locations', { short: shortCode() })).json().attributes;
    const other = (await call('POST', 'locations', { short: shortCode() })).json().attributes;
    const before = await auditEntryCount(t.db);
    expect((await call('POST', 'locations', { short: taken.short })).statusCode).toBe(422);
    expect((await call('PATCH', `locations/${other.id}`, { short: taken.short })).statusCode).toBe(422);
    expect((await call('PATCH', 'locations/999999', { short: shortCode() })).statusCode).toBe(404);
    expect((await call('DELETE', 'locations/999999')).statusCode).toBe(404);
    expect(await auditEntryCount(t.db)).toBe(before);
  });

  it('names no API key for a change made in the admin area (a session)', async () => {
    const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
    const browser = new TestBrowser(t.app, '198.51.100.4');
    await browser.signIn(user.username, password);
    const created = await browser.post('/api/application/locations', { short: shortCode() });
    expect(created.statusCode, created.body).toBe(201);
    const [entry] = await auditEntriesAbout(t.db, 'location', created.json().attributes.id);
    expect(entry).toMatchObject({
      action: 'location.create',
      actorId: user.id,
      apiKey: null,
      ip: '198.51.100.4',
    });
  });
});

describe('GET /api/application/audit-log', () => {
  it('lists entries newest first, filtered by action, subject and actor, and shows one by id', async () => {
    const short = shortCode();
    const id = (await call('POST', 'locations', { short })).json().attributes.id as number;
    await call('PATCH', `locations/${id}`, { short, long: 'Now with a name' });

    const about = await call('GET', `audit-log?filter[subject_type]=location&filter[subject_id]=${id}`);
    expect(about.statusCode).toBe(200);
    const items = about.json().data as { object: string; attributes: Record<string, unknown> }[];
    expect(items.map((item) => item.attributes.action)).toEqual(['location.update', 'location.create']);
    expect(items[0]).toEqual({
      object: 'audit_entry',
      attributes: {
        id: expect.any(Number),
        action: 'location.update',
        actor_id: admin.id,
        actor_name: admin.username,
        api_key: bearer.slice(0, 16),
        ip: '203.0.113.7',
        subject_type: 'location',
        subject_id: String(id),
        before: { id, short, long: null },
        after: { id, short, long: 'Now with a name' },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      },
    });

    const byAction = (await call('GET', 'audit-log?filter[action]=location.update&per_page=1000')).json();
    expect(byAction.data.length).toBeGreaterThan(0);
    expect(
      byAction.data.every(
        (item: { attributes: { action: string } }) => item.attributes.action === 'location.update',
      ),
    ).toBe(true);
    const byActor = (await call('GET', `audit-log?filter[actor_id]=${admin.id}&per_page=1`)).json();
    expect(byActor.meta.pagination.total).toBeGreaterThan(1);

    const one = await call('GET', `audit-log/${items[1]?.attributes.id}`);
    expect(one.json().attributes).toMatchObject({ action: 'location.create', subject_id: String(id) });
    expect((await call('GET', 'audit-log/999999')).statusCode).toBe(404);
    expect((await call('GET', 'audit-log?filter[before]=x')).statusCode).toBe(400);
  });

  it('needs read access to the audit log on an application key', async () => {
    const { user } = await createTestUser(t.ctx, { rootAdmin: true });
    const none = await createApplicationBearer(t.ctx, user, { audit_log: 0 });
    const read = await createApplicationBearer(t.ctx, user, { audit_log: 1 });
    expect((await applicationRequest(t.app, none, 'GET', 'audit-log')).statusCode).toBe(403);
    expect((await applicationRequest(t.app, read, 'GET', 'audit-log')).statusCode).toBe(200);
  });
});
