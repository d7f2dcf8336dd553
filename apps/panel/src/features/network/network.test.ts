import { SETTING_ALLOCATIONS_ENABLED } from '@aerie/panel/features/panel-settings/panel-settings';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addServerAllocation, addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  serverScenarioWithDaemon,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The Network page's API (reference §7.2 "Network allocations") against a daemon stand-in that records the
 * syncs. The client allocation range is the test app's DEMO_PORT_RANGE (25565-25575) unless a test sets it.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let creator: Actor;
let updater: Actor;
let deleter: Actor;

const IP = '10.0.0.1';
const base = (server = s.server.uuid_short) => `/api/client/servers/${server}/network/allocations`;
const list = (actor: Actor) => actor.get(base());
const create = (actor: Actor, server?: string) => actor.browser.post(base(server));
const notes = (actor: Actor, id: number, body: unknown) =>
  actor.browser.post(`${base()}/${id}`, body as Record<string, unknown>);
const primary = (actor: Actor, id: number) => actor.browser.post(`${base()}/${id}/primary`);
const remove = (actor: Actor, id: number) => actor.browser.send('DELETE', `${base()}/${id}`);

const serverAllocations = () =>
  t.db
    .selectFrom('allocations')
    .select(['id', 'ip', 'port', 'notes'])
    .where('server_id', '=', s.server.id)
    .orderBy('id')
    .execute();
const syncs = () => s.callsTo('sync').length;

async function setLimit(limit: number | null) {
  await t.db.updateTable('servers').set({ allocation_limit: limit }).where('id', '=', s.server.id).execute();
}

/** Back to one primary allocation on 10.0.0.1 and an empty client range on that address. */
async function resetAllocations() {
  const server = await t.db
    .selectFrom('servers')
    .select('allocation_id')
    .where('id', '=', s.server.id)
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('allocations')
    .set({ server_id: null, notes: null })
    .where('server_id', '=', s.server.id)
    .where('id', '!=', server.allocation_id)
    .execute();
  await t.db.deleteFrom('allocations').where('port', '>=', 25565).where('port', '<=', 25575).execute();
  await t.ctx.settings.setMany({
    allocations_enabled: null,
    allocations_range_start: null,
    allocations_range_end: null,
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ['allocation.read']);
  [creator, updater, deleter] = await Promise.all([signedIn(t), signedIn(t), signedIn(t)]);
  await addSubuser(t.ctx, s.server, creator.user, ['allocation.create']);
  await addSubuser(t.ctx, s.server, updater.user, ['allocation.update', 'allocation.read']);
  await addSubuser(t.ctx, s.server, deleter.user, ['allocation.delete']);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  await resetAllocations();
  await setLimit(3);
});

describe('GET …/network/allocations', () => {
  it('lists the server’s allocations oldest first, the primary marked, notes included', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25570, 'voice chat');
    const response = await list(s.owner);
    expect(response.statusCode).toBe(200);
    const [first, second] = await serverAllocations();
    expect(response.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'allocation',
          attributes: {
            id: first?.id,
            ip: IP,
            ip_alias: null,
            port: first?.port,
            notes: null,
            is_default: true,
          },
        },
        {
          object: 'allocation',
          attributes: {
            id: second?.id,
            ip: IP,
            ip_alias: null,
            port: 25570,
            notes: 'voice chat',
            is_default: false,
          },
        },
      ],
    });
  });

  it('answers 403 to a subuser without allocation.read and 404 to a stranger', async () => {
    expect((await list(s.limited)).statusCode).toBe(403);
    expect((await list(s.stranger)).statusCode).toBe(404);
    expect((await list(s.subuser)).statusCode).toBe(200);
    expect((await list(s.admin)).statusCode).toBe(200);
  });

  it.each(conflictStates)('answers 409 while the server is %o', async (...entry) => {
    await expectConflictForEach(t, s, entry, [s.owner], (actor) => list(actor));
  });
});

describe('POST …/network/allocations (create)', () => {
  it('gives a free allocation the node already has in the range, on the primary’s address', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25566);
    await t.db.updateTable('allocations').set({ server_id: null }).where('port', '=', 25566).execute();
    const before = syncs();
    const response = await create(s.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      object: 'allocation',
      attributes: { ip: IP, port: 25566, notes: null, is_default: false },
    });
    expect((await serverAllocations()).map((row) => row.port)).toContain(25566);
    expect(syncs()).toBe(before + 1);
  });

  it('makes a new allocation on a free port of the range when the node has none free there', async () => {
    await t.ctx.settings.setMany({ allocations_range_start: '25570', allocations_range_end: '25571' });
    const response = await create(creator);
    expect(response.statusCode).toBe(200);
    const { port } = response.json().attributes;
    expect([25570, 25571]).toContain(port);
    expect((await serverAllocations()).map((row) => row.port)).toContain(port);
  });

  it('refuses at the limit (null and 0 allow nothing more), before asking whether the feature is on', async () => {
    await t.ctx.settings.set(SETTING_ALLOCATIONS_ENABLED, '0');
    for (const limit of [1, 0, null]) {
      await setLimit(limit);
      const response = await create(s.owner);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toEqual({
        code: 'DisplayException',
        status: '400',
        detail: 'Cannot assign additional allocations to this server: limit has been reached.',
      });
    }
    expect(await serverAllocations()).toHaveLength(1);
  });

  it('refuses when the admin turned user-made allocations off', async () => {
    await t.ctx.settings.set(SETTING_ALLOCATIONS_ENABLED, '0');
    const response = await create(s.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      code: 'AutoAllocationNotEnabledException',
      status: '400',
      detail: 'Server auto-allocation is not enabled for this instance.',
    });
  });

  it('refuses when every port of the range is taken by other servers', async () => {
    await t.ctx.settings.setMany({ allocations_range_start: '25572', allocations_range_end: '25572' });
    const other = await createTestServer(t.ctx, {
      owner: s.stranger.user,
      node: s.node,
      eggId: s.egg.id,
      ip: IP,
      port: 25572,
    });
    const response = await create(s.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      code: 'NoAutoAllocationSpaceAvailableException',
      status: '400',
      detail: 'Cannot assign additional allocation: no more space available on node.',
    });
    await t.db.deleteFrom('servers').where('id', '=', other.id).execute();
  });

  it('never passes the limit when many requests arrive at once', async () => {
    await setLimit(3);
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(s.owner)));
    const statuses = answers.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400, 400, 400]);
    const rows = await serverAllocations();
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.port)).size).toBe(3);
  });

  it('gives two servers racing for the last free ports different ones', async () => {
    await t.ctx.settings.setMany({ allocations_range_start: '25573', allocations_range_end: '25574' });
    const other = await createTestServer(t.ctx, {
      owner: s.owner.user,
      node: s.node,
      eggId: s.egg.id,
      ip: IP,
      port: 30999,
      allocationLimit: 5,
    });
    const answers = await Promise.all([
      create(s.owner),
      create(s.owner, other.uuid_short),
      create(s.owner),
      create(s.owner, other.uuid_short),
    ]);
    const granted = answers.filter((response) => response.statusCode === 200);
    expect(granted).toHaveLength(2);
    const ports = granted.map((response) => response.json().attributes.port);
    expect(new Set(ports)).toEqual(new Set([25573, 25574]));
    for (const response of answers.filter((answer) => answer.statusCode !== 200)) {
      expect(response.json().errors[0].code).toBe('NoAutoAllocationSpaceAvailableException');
    }
    await t.db
      .updateTable('allocations')
      .set({ server_id: null })
      .where('server_id', '=', other.id)
      .execute();
  });

  it('answers 403 without allocation.create (allocation.update is not enough) and 404 to a stranger', async () => {
    expect((await create(updater)).statusCode).toBe(403);
    expect((await create(s.stranger)).statusCode).toBe(404);
    expect(await serverAllocations()).toHaveLength(1);
  });
});

describe('POST …/network/allocations/{id} (notes)', () => {
  it('sets the notes, and null or "" clears them', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25567);
    const id = (await serverAllocations())[1]?.id as number;
    const set = await notes(updater, id, { notes: 'Query port' });
    expect(set.statusCode).toBe(200);
    expect(set.json().attributes).toMatchObject({ id, notes: 'Query port', is_default: false });
    expect((await serverAllocations())[1]?.notes).toBe('Query port');
    for (const empty of [null, '']) {
      expect((await notes(updater, id, { notes: empty })).json().attributes.notes).toBeNull();
      expect((await serverAllocations())[1]?.notes).toBeNull();
    }
  });

  it('wants the notes key (present), a string of at most 256 characters', async () => {
    const id = (await serverAllocations())[0]?.id as number;
    const missing = await notes(s.owner, id, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0]).toMatchObject({
      detail: 'The notes field must be present.',
      meta: { source_field: 'notes', rule: 'present' },
    });
    const long = await notes(s.owner, id, { notes: 'x'.repeat(257) });
    expect(long.json().errors[0]).toMatchObject({
      detail: 'The notes may not be greater than 256 characters.',
      meta: { rule: 'max' },
    });
    expect((await notes(s.owner, id, { notes: ['a'] })).json().errors[0].meta.rule).toBe('string');
    expect((await serverAllocations())[0]?.notes).toBeNull();
  });

  it('answers 404 for an allocation of another server, even to its owner, before the permission check', async () => {
    const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const foreign = other.allocation_id;
    expect((await notes(s.owner, foreign, { notes: 'x' })).statusCode).toBe(404);
    // A subuser without the permission is told 404 too: the allocation is not this server's.
    expect((await notes(s.limited, foreign, { notes: 'x' })).statusCode).toBe(404);
    expect((await notes(s.owner, 999_999, { notes: 'x' })).statusCode).toBe(404);
    expect((await notes(s.owner, 'abc' as unknown as number, { notes: 'x' })).statusCode).toBe(404);
  });

  it('answers 403 without allocation.update and 404 to a stranger', async () => {
    const id = (await serverAllocations())[0]?.id as number;
    expect((await notes(creator, id, { notes: 'x' })).statusCode).toBe(403);
    expect((await notes(s.stranger, id, { notes: 'x' })).statusCode).toBe(404);
    expect((await serverAllocations())[0]?.notes).toBeNull();
  });
});

describe('POST …/network/allocations/{id}/primary', () => {
  it('switches the server’s primary and tells the daemon', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25568);
    const [old, next] = await serverAllocations();
    const before = syncs();
    const response = await primary(updater, next?.id as number);
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({ id: next?.id, port: 25568, is_default: true });
    const listed = (await list(s.owner)).json().data.map((item: { attributes: object }) => item.attributes);
    expect(listed).toEqual([
      expect.objectContaining({ id: old?.id, is_default: false }),
      expect.objectContaining({ id: next?.id, is_default: true }),
    ]);
    expect(syncs()).toBe(before + 1);
    await primary(s.owner, old?.id as number);
  });

  it('answers 403 without allocation.update and 404 to a stranger', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25568);
    const next = (await serverAllocations())[1]?.id as number;
    expect((await primary(creator, next)).statusCode).toBe(403);
    expect((await primary(s.stranger, next)).statusCode).toBe(404);
    const server = await t.db
      .selectFrom('servers')
      .select('allocation_id')
      .where('id', '=', s.server.id)
      .executeTakeFirst();
    expect(server?.allocation_id).not.toBe(next);
  });
});

describe('DELETE …/network/allocations/{id}', () => {
  it('gives the allocation back to the node with its notes cleared (the row stays)', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25569, 'old');
    const id = (await serverAllocations())[1]?.id as number;
    const response = await remove(deleter, id);
    expect(response.statusCode).toBe(204);
    const row = await t.db
      .selectFrom('allocations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ server_id: null, notes: null, port: 25569 });
    expect((await remove(deleter, id)).statusCode).toBe(404);
  });

  it('refuses the primary, and any allocation while the server has no limit', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25569);
    const [first, second] = await serverAllocations();
    const refused = await remove(s.owner, first?.id as number);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toEqual({
      code: 'DisplayException',
      status: '400',
      detail: 'You cannot delete the primary allocation for this server.',
    });
    await setLimit(null);
    const noLimit = await remove(s.owner, second?.id as number);
    expect(noLimit.json().errors[0].detail).toBe(
      'You cannot delete allocations for this server: no allocation limit is set.',
    );
    expect(await serverAllocations()).toHaveLength(2);
  });

  it('never leaves the server without its primary when make-primary and delete race', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25569);
    const second = (await serverAllocations())[1]?.id as number;
    await Promise.all([primary(s.owner, second), remove(s.owner, second)]);
    const server = await t.db
      .selectFrom('servers')
      .select('allocation_id')
      .where('id', '=', s.server.id)
      .executeTakeFirstOrThrow();
    const owned = await serverAllocations();
    expect(owned.map((row) => row.id)).toContain(server.allocation_id);
    await t.db
      .updateTable('servers')
      .set({ allocation_id: owned[0]?.id as number })
      .where('id', '=', s.server.id)
      .execute();
  });

  it('answers 403 without allocation.delete and 404 to a stranger', async () => {
    await addServerAllocation(t.ctx, s.server, IP, 25569);
    const id = (await serverAllocations())[1]?.id as number;
    expect((await remove(updater, id)).statusCode).toBe(403);
    expect((await remove(s.stranger, id)).statusCode).toBe(404);
    expect(await serverAllocations()).toHaveLength(2);
  });
});
