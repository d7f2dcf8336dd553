import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import type { User } from '@aerie/panel/features/users/user';
import {
  accessDeniedJson,
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
  notFoundJson,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount, madeWithKey } from '@aerie/panel/test/audit-entries';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import {
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllocationsService, MAX_ALLOCATIONS_PER_REQUEST, parsePortEntries } from './allocations.service';
import { addAllocations, type NodeRow } from './nodes.service';

let t: TestApp;
let admin: User;
let bearer: string;
let eggId: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, bearer } = await createAdminWithKey(t.ctx));
  eggId = (await importDemoEgg(t.ctx)).id;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, key = bearer) =>
  applicationRequest(t.app, key, method, url, body);

const allocationsOf = (node: NodeRow) =>
  t.db
    .selectFrom('allocations')
    .select(['id', 'ip', 'ip_alias', 'port', 'server_id'])
    .where('node_id', '=', node.id)
    .orderBy('id')
    .execute();

const pairs = async (node: NodeRow) => (await allocationsOf(node)).map((row) => `${row.ip}:${row.port}`);

const idOf = async (node: NodeRow, ip: string, port: number) =>
  (
    await t.db
      .selectFrom('allocations')
      .select('id')
      .where('node_id', '=', node.id)
      .where('ip', '=', ip)
      .where('port', '=', port)
      .executeTakeFirstOrThrow()
  ).id;

const error = (code: string, detail: string) => ({ errors: [{ code, status: '400', detail }] });

describe('GET /api/application/nodes/{node}/allocations', () => {
  let node: NodeRow;
  let server: ServerRow;

  beforeAll(async () => {
    node = await createTestNode(t.ctx);
    server = await createTestServer(t.ctx, { owner: admin, node, eggId, ip: '10.0.0.9', port: 30000 });
    await addAllocations(t.db, node.id, '10.0.0.1', [25565, 25566, 25567]);
    await addAllocations(t.db, node.id, '10.0.0.2', [25565]);
    await t.db
      .updateTable('allocations')
      .set({ ip_alias: 'Game.Example.com', notes: 'note' })
      .where('node_id', '=', node.id)
      .where('ip', '=', '10.0.0.2')
      .execute();
    // Another node's allocations never show.
    await addAllocations(t.db, (await createTestNode(t.ctx)).id, '10.0.0.1', [25565]);
  });

  const ports = (response: { json(): { data: { attributes: { ip: string; port: number } }[] } }) =>
    response.json().data.map((item) => `${item.attributes.ip}:${item.attributes.port}`);

  it('lists the node’s allocations, paginated, with the reference attributes', async () => {
    const response = await call('GET', `nodes/${node.id}/allocations?per_page=2&page=2`);
    expect(response.statusCode).toBe(200);
    const json = response.json();
    expect(json.data).toEqual([
      {
        object: 'allocation',
        attributes: {
          id: await idOf(node, '10.0.0.1', 25566),
          ip: '10.0.0.1',
          alias: null,
          port: 25566,
          notes: null,
          assigned: false,
        },
      },
      {
        object: 'allocation',
        attributes: {
          id: await idOf(node, '10.0.0.1', 25567),
          ip: '10.0.0.1',
          alias: null,
          port: 25567,
          notes: null,
          assigned: false,
        },
      },
    ]);
    expect(json.meta.pagination).toMatchObject({
      total: 5,
      count: 2,
      per_page: 2,
      current_page: 2,
      total_pages: 3,
    });
    const first = await call('GET', `nodes/${node.id}/allocations`);
    expect(first.json().data[0].attributes).toEqual({
      id: server.allocation_id,
      ip: '10.0.0.9',
      alias: null,
      port: 30000,
      notes: null,
      assigned: true,
    });
    expect(first.json().data[4].attributes).toMatchObject({ alias: 'Game.Example.com', notes: 'note' });
  });

  it('filters by ip and port (exact), ip_alias (partial) and server_id (custom)', async () => {
    const url = (filter: string) => `nodes/${node.id}/allocations?${filter}`;
    expect(ports(await call('GET', url('filter[ip]=10.0.0.2')))).toEqual(['10.0.0.2:25565']);
    expect(ports(await call('GET', url('filter[ip]=10.0.0')))).toEqual([]);
    expect(ports(await call('GET', url('filter[port]=25565')))).toEqual(['10.0.0.1:25565', '10.0.0.2:25565']);
    expect(ports(await call('GET', url('filter[port]=25566,25567')))).toEqual([
      '10.0.0.1:25566',
      '10.0.0.1:25567',
    ]);
    expect(ports(await call('GET', url('filter[port]=2556')))).toEqual([]);
    expect(ports(await call('GET', url('filter[port]=abc')))).toEqual([]);
    expect(ports(await call('GET', url('filter[ip_alias]=example')))).toEqual(['10.0.0.2:25565']);
    expect(ports(await call('GET', url(`filter[server_id]=${server.id}`)))).toEqual(['10.0.0.9:30000']);
    for (const unassigned of ['', '0', 'abc', `${server.id},1`, 'true']) {
      expect(ports(await call('GET', url(`filter[server_id]=${unassigned}`))), unassigned).toHaveLength(4);
    }
    const badFilter = await call('GET', url('filter[notes]=x'));
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().errors[0]).toEqual({
      code: 'InvalidFilterQuery',
      status: '400',
      detail:
        'Requested filter(s) `notes` are not allowed. Allowed filter(s) are `ip, port, ip_alias, server_id`.',
    });
    const sort = await call('GET', url('sort=port'));
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors[0].code).toBe('InvalidSortQuery');
  });

  it('includes the node behind the nodes read bit', async () => {
    const response = await call('GET', `nodes/${node.id}/allocations?include=node&filter[ip]=10.0.0.2`);
    const nodeJson = (await call('GET', `nodes/${node.id}`)).json();
    expect(response.json().data[0].attributes.relationships).toEqual({ node: nodeJson });
    const noNodes = await createApplicationBearer(t.ctx, admin, { nodes: 0 });
    const gated = await call('GET', `nodes/${node.id}/allocations?include=node`, undefined, noNodes);
    expect(gated.statusCode).toBe(200);
    expect(gated.json().data[0].attributes.relationships).toEqual({
      node: { object: 'null_resource', attributes: null },
    });
  });

  it('answers 404 for an unknown node and 403 without allocations read', async () => {
    for (const id of ['999999', 'abc']) {
      expect((await call('GET', `nodes/${id}/allocations`)).json()).toEqual(notFoundJson);
    }
    for (const access of [0, 2]) {
      const key = await createApplicationBearer(t.ctx, admin, { allocations: access });
      const response = await call('GET', `nodes/${node.id}/allocations`, undefined, key);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(accessDeniedJson);
    }
  });
});

describe('POST /api/application/nodes/{node}/allocations', () => {
  it('adds single ports and ranges (either way round) on an address, with the alias; 204', async () => {
    const node = await createTestNode(t.ctx);
    const response = await call('POST', `nodes/${node.id}/allocations`, {
      ip: '10.5.0.1',
      alias: 'play.example.com',
      ports: ['25565', '27015-27017', '30002-30000'],
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await pairs(node)).toEqual([
      '10.5.0.1:25565',
      '10.5.0.1:27015',
      '10.5.0.1:27016',
      '10.5.0.1:27017',
      '10.5.0.1:30000',
      '10.5.0.1:30001',
      '10.5.0.1:30002',
    ]);
    expect(new Set((await allocationsOf(node)).map((row) => row.ip_alias))).toEqual(
      new Set(['play.example.com']),
    );
  });

  it('skips the pairs the node already has (their alias unchanged) and adds the rest', async () => {
    const node = await createTestNode(t.ctx);
    await addAllocations(t.db, node.id, '10.6.0.1', [25565]);
    const response = await call('POST', `nodes/${node.id}/allocations`, {
      ip: '10.6.0.1',
      alias: 'new',
      ports: ['25565-25566', '25566'],
    });
    expect(response.statusCode).toBe(204);
    expect((await allocationsOf(node)).map((row) => [row.port, row.ip_alias])).toEqual([
      [25565, null],
      [25566, 'new'],
    ]);
  });

  it('adds every address of a CIDR block (network and broadcast included), a host name and IPv6', async () => {
    const node = await createTestNode(t.ctx);
    expect(
      (await call('POST', `nodes/${node.id}/allocations`, { ip: '10.7.0.5/30', ports: ['2000'] })).statusCode,
    ).toBe(204);
    expect(
      (await call('POST', `nodes/${node.id}/allocations`, { ip: 'localhost', ports: ['2001'] })).statusCode,
    ).toBe(204);
    expect(
      (await call('POST', `nodes/${node.id}/allocations`, { ip: '2001:DB8:0:0::1', ports: ['2002'] }))
        .statusCode,
    ).toBe(204);
    expect(await pairs(node)).toEqual([
      '10.7.0.4:2000',
      '10.7.0.5:2000',
      '10.7.0.6:2000',
      '10.7.0.7:2000',
      '127.0.0.1:2001',
      '2001:db8::1:2002',
    ]);
  });

  it('answers the reference 400 exceptions, and writes nothing when any entry fails', async () => {
    const node = await createTestNode(t.ctx);
    const post = (ip: string, ports: string[]) => call('POST', `nodes/${node.id}/allocations`, { ip, ports });
    const cidr = error('CidrOutOfRangeException', 'CIDR notation only allows masks between /25 and /32.');
    for (const ip of ['10.0.0.0/24', '10.0.0.0/33', '10.0.0.0/abc', '10.0.0.0/']) {
      const response = await post(ip, ['2000']);
      expect(response.statusCode, ip).toBe(400);
      expect(response.json()).toEqual(cidr);
    }
    expect((await post('10.0.0.300', ['2000'])).json()).toEqual(
      error(
        'DisplayException',
        'Could not parse provided allocation IP address (10.0.0.300): Invalid IP address format',
      ),
    );
    expect((await post('myhost/28', ['2000'])).json()).toEqual(
      error(
        'DisplayException',
        'Could not parse provided allocation IP address (myhost/28): Invalid IP address format',
      ),
    );
    for (const entry of ['25565-', 'abc', '123-4567', '25565-25570-25575', '2 5565']) {
      expect((await post('10.8.0.1', ['2000', entry])).json(), entry).toEqual(
        error(
          'InvalidPortMappingException',
          `The mapping provided for ${entry} was invalid and could not be processed.`,
        ),
      );
    }
    expect((await post('10.8.0.1', ['2000', '3000-4000'])).json()).toEqual(
      error(
        'TooManyPortsInRangeException',
        'Adding more than 1000 ports in a single range at once is not supported.',
      ),
    );
    const outOfRange = error(
      'PortOutOfRangeException',
      'Ports in an allocation must be greater than 1024 and less than or equal to 65535.',
    );
    for (const entry of ['1024', '65536', '1000-1100', '65500-65536', '0']) {
      expect((await post('10.8.0.1', ['2000', entry])).json(), entry).toEqual(outOfRange);
    }
    // The bound on one request: a /25 with 600 ports each is 76,800 pairs.
    expect((await post('10.9.0.0/25', ['2000-2599'])).json()).toEqual(
      error(
        'DisplayException',
        `Adding more than ${MAX_ALLOCATIONS_PER_REQUEST} allocations in a single request is not supported.`,
      ),
    );
    expect((await post('2001:db8::/32', ['2000'])).statusCode).toBe(400);
    expect(await pairs(node)).toEqual([]);
    // At the bound exactly: a /25 with 512 ports each.
    expect((await post('10.9.0.0/25', ['2000-2511'])).statusCode).toBe(204);
    expect(await allocationsOf(node)).toHaveLength(MAX_ALLOCATIONS_PER_REQUEST);
  });

  it('resolves a host name to one IPv4 address, and reports a name that does not resolve', async () => {
    const node = await createTestNode(t.ctx);
    const service = new AllocationsService({
      db: t.db,
      clock: () => new Date(),
      resolveIpv4: async (host) => (host === 'game.example.com' ? '192.0.2.10' : null),
    });
    await service.create(node.id, { ip: 'game.example.com', ports: ['2000'] }, unrecorded);
    expect(await pairs(node)).toEqual(['192.0.2.10:2000']);
    await expect(
      service.create(node.id, { ip: 'nowhere.example.com', ports: ['2000'] }, unrecorded),
    ).rejects.toMatchObject({
      statusCode: 400,
      code: 'DisplayException',
      detail:
        'Could not parse provided allocation IP address (nowhere.example.com): Invalid IP address format',
    });
  });

  it('parses port entries in order, the first failure deciding', () => {
    expect(parsePortEntries(['2000', '3000-3002', '5000-4999'])).toEqual([
      { from: 2000, to: 2000 },
      { from: 3000, to: 3002 },
      { from: 4999, to: 5000 },
    ]);
    expect(() => parsePortEntries(['x', '1'])).toThrow('The mapping provided for x was invalid');
    expect(() => parsePortEntries(['1', 'x'])).toThrow('Ports in an allocation must be greater than 1024');
  });

  it('answers 422 for the body rules: ports must be a list of strings', async () => {
    const node = await createTestNode(t.ctx);
    const empty = await call('POST', `nodes/${node.id}/allocations`, []);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The ip field is required.',
      'The ports field is required.',
    ]);
    const numbers = await call('POST', `nodes/${node.id}/allocations`, {
      ip: '10.0.0.1',
      alias: 5,
      ports: [25565, '25566'],
    });
    expect(numbers.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The alias must be a string.',
        meta: { source_field: 'alias', rule: 'string' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The ports.0 must be a string.',
        meta: { source_field: 'ports.0', rule: 'string' },
      },
    ]);
    const notList = await call('POST', `nodes/${node.id}/allocations`, { ip: '10.0.0.1', ports: '25565' });
    expect(notList.json().errors[0].detail).toBe('The ports must be an array.');
    expect(await pairs(node)).toEqual([]);
  });

  it('answers 404 for an unknown node and 403 to a key without allocations write', async () => {
    const body = { ip: '10.0.0.1', ports: ['2000'] };
    expect((await call('POST', 'nodes/999999/allocations', body)).json()).toEqual(notFoundJson);
    const node = await createTestNode(t.ctx);
    const readOnly = await createApplicationBearer(t.ctx, admin, { allocations: 1 });
    const response = await call('POST', `nodes/${node.id}/allocations`, {}, readOnly);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(accessDeniedJson);
    expect(await pairs(node)).toEqual([]);
  });
});

describe('DELETE /api/application/nodes/{node}/allocations/{allocation}', () => {
  it('deletes a free allocation of the node; 404 for another node’s or an unknown one', async () => {
    const node = await createTestNode(t.ctx);
    const other = await createTestNode(t.ctx);
    await addAllocations(t.db, node.id, '10.10.0.1', [2000, 2001]);
    await addAllocations(t.db, other.id, '10.10.0.1', [2000]);
    const id = await idOf(node, '10.10.0.1', 2000);
    const othersId = await idOf(other, '10.10.0.1', 2000);
    expect((await call('DELETE', `nodes/${node.id}/allocations/${othersId}`)).json()).toEqual(notFoundJson);
    expect((await call('DELETE', `nodes/${node.id}/allocations/999999`)).json()).toEqual(notFoundJson);
    expect((await call('DELETE', `nodes/${node.id}/allocations/abc`)).json()).toEqual(notFoundJson);
    expect((await call('DELETE', `nodes/999999/allocations/${id}`)).json()).toEqual(notFoundJson);
    const readOnly = await createApplicationBearer(t.ctx, admin, { allocations: 1 });
    expect((await call('DELETE', `nodes/${node.id}/allocations/${id}`, undefined, readOnly)).json()).toEqual(
      accessDeniedJson,
    );
    const response = await call('DELETE', `nodes/${node.id}/allocations/${id}`, []);
    expect(response.statusCode).toBe(204);
    expect(await pairs(node)).toEqual(['10.10.0.1:2001']);
    expect(await pairs(other)).toEqual(['10.10.0.1:2000']);
  });

  it('refuses an allocation a server holds (400 ServerUsingAllocationException)', async () => {
    const node = await createTestNode(t.ctx);
    const server = await createTestServer(t.ctx, { owner: admin, node, eggId, ip: '10.11.0.1', port: 2000 });
    const response = await call('DELETE', `nodes/${node.id}/allocations/${server.allocation_id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      error(
        'ServerUsingAllocationException',
        'A server is currently assigned to this allocation. An allocation can only be deleted if no server is currently assigned.',
      ),
    );
    expect(await pairs(node)).toEqual(['10.11.0.1:2000']);
  });

  it('lets only one of two deletes and a concurrent assignment succeed', async () => {
    const node = await createTestNode(t.ctx);
    const server = await createTestServer(t.ctx, { owner: admin, node, eggId, ip: '10.12.0.1', port: 2000 });
    for (let round = 0; round < 12; round++) {
      const port = 3000 + round;
      await addAllocations(t.db, node.id, '10.12.0.1', [port]);
      const id = await idOf(node, '10.12.0.1', port);
      const assign = async () =>
        Number(
          (
            await t.db
              .updateTable('allocations')
              .set({ server_id: server.id })
              .where('id', '=', id)
              .where('server_id', 'is', null)
              .executeTakeFirst()
          ).numUpdatedRows,
        );
      // Through the route (its authentication lets a direct assignment start first), then through the service
      // (same depth as the assignment, so the order of the calls decides who starts first).
      const remove =
        round < 6
          ? async () => (await call('DELETE', `nodes/${node.id}/allocations/${id}`)).statusCode
          : () =>
              t.ctx.allocations.delete(node.id, id, unrecorded).then(
                () => 204,
                (error: { statusCode: number }) => error.statusCode,
              );
      // The assignment goes first, between or last, by round.
      const order = [remove, remove];
      order.splice(round % 3, 0, assign);
      const outcomes = await Promise.all(order.map((step) => step()));
      const assigned = outcomes[round % 3] === 1;
      const statuses = outcomes.filter((_, index) => index !== round % 3).sort();
      const row = await t.db
        .selectFrom('allocations')
        .select('server_id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (assigned) {
        expect(statuses, `round ${round}`).toEqual([400, 400]);
        expect(row?.server_id).toBe(server.id);
      } else {
        expect(statuses, `round ${round}`).toEqual([204, 404]);
        expect(row).toBeUndefined();
      }
    }
    // Which side wins a round depends on the database's scheduling (SQLite serialises, PostgreSQL and MySQL pool
    // connections), so no round count is asserted; every round held the rule above.
    // Delete first, then the assignment: the allocation is gone and nothing can claim it.
    await addAllocations(t.db, node.id, '10.12.0.1', [3100]);
    const last = await idOf(node, '10.12.0.1', 3100);
    expect((await call('DELETE', `nodes/${node.id}/allocations/${last}`)).statusCode).toBe(204);
    const claimed = await t.db
      .updateTable('allocations')
      .set({ server_id: server.id })
      .where('id', '=', last)
      .where('server_id', 'is', null)
      .executeTakeFirst();
    expect(Number(claimed.numUpdatedRows)).toBe(0);
  });
});

describe('the admin audit log of allocations', () => {
  const who = () => madeWithKey(admin, bearer);

  it('records one entry per POST, however many allocations it adds, with the request’s terms', async () => {
    const node = await createTestNode(t.ctx);
    const before = await auditEntryCount(t.db);
    const body = { ip: '10.20.0.0/30', alias: 'block', ports: ['2000', '2100-2109'] };
    expect((await call('POST', `nodes/${node.id}/allocations`, body)).statusCode).toBe(204);
    expect(await allocationsOf(node)).toHaveLength(44);
    expect(await auditEntryCount(t.db)).toBe(before + 1);
    const entries = (await auditEntriesAbout(t.db, 'allocation', null)).filter(
      (entry) => entry.after?.node_id === node.id,
    );
    expect(entries).toEqual([
      expect.objectContaining({
        ...who(),
        action: 'allocation.create',
        before: null,
        after: { node_id: node.id, ...body },
      }),
    ]);
  });

  it('records the deletion of an allocation with what it was', async () => {
    const node = await createTestNode(t.ctx);
    await addAllocations(t.db, node.id, '10.21.0.1', [2000]);
    const id = await idOf(node, '10.21.0.1', 2000);
    expect((await call('DELETE', `nodes/${node.id}/allocations/${id}`)).statusCode).toBe(204);
    expect(await auditEntriesAbout(t.db, 'allocation', id)).toEqual([
      expect.objectContaining({
        ...who(),
        action: 'allocation.delete',
        before: { id, ip: '10.21.0.1', alias: null, port: 2000, notes: null, assigned: false },
        after: null,
      }),
    ]);
  });

  it('records nothing for a POST or DELETE that fails', async () => {
    const node = await createTestNode(t.ctx);
    const server = await createTestServer(t.ctx, { owner: admin, node, eggId, ip: '10.22.0.1', port: 2000 });
    const before = await auditEntryCount(t.db);
    const post = (body: unknown) => call('POST', `nodes/${node.id}/allocations`, body);
    expect((await post({ ip: '10.22.0.0/24', ports: ['2000'] })).statusCode).toBe(400);
    expect((await post({ ip: '10.22.0.1', ports: ['80'] })).statusCode).toBe(400);
    expect((await post({ ip: '10.22.0.1', ports: '2000' })).statusCode).toBe(422);
    expect(
      (await call('POST', 'nodes/999999/allocations', { ip: '10.22.0.1', ports: ['2000'] })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `nodes/${node.id}/allocations/999999`)).statusCode).toBe(404);
    expect((await call('DELETE', `nodes/${node.id}/allocations/${server.allocation_id}`)).statusCode).toBe(
      400,
    );
    expect(await auditEntryCount(t.db)).toBe(before);
  });
});
