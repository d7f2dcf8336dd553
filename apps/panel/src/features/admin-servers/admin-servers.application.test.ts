import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { addAllocations } from '@aerie/panel/features/nodes/nodes.service';
import type { User } from '@aerie/panel/features/users/user';
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
import { type DaemonAnswer, startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import { createTestNode, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
let bearer: string;
let admin: User;
let node: NodeRow;
let eggId: number;
let customer: { user: User; password: string };
let answer: (call: { method: string; path: string }) => DaemonAnswer | undefined = () => undefined;
let port = 40000;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, bearer } = await createAdminWithKey(t.ctx));
  node = await createTestNode(t.ctx, { memory: 1_000_000, disk: 10_000_000 });
  daemon = await startDaemonStandIn({
    token: t.ctx.secretBox.open(node.daemon_token),
    answer: (call) => answer(call),
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', node.id)
    .execute();
  eggId = (await importDemoEgg(t.ctx)).id;
  customer = await createTestUser(t.ctx);
});
afterAll(async () => {
  await t.close();
  await daemon.close();
});
beforeEach(() => {
  answer = () => undefined;
  daemon.calls.length = 0;
});

/** Fresh allocations on the test node (or another): their ids, in port order. */
async function freeAllocations(count: number, target: NodeRow = node, ip = '10.0.0.1'): Promise<number[]> {
  const ports = Array.from({ length: count }, () => port++);
  await addAllocations(t.db, target.id, ip, ports);
  const rows = await t.db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', target.id)
    .where('ip', '=', ip)
    .where('port', 'in', ports)
    .orderBy('port')
    .execute();
  return rows.map((row) => row.id);
}

const environment = { MOTD: 'Hello', MAX_PLAYERS: '20' };

function serverBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Billing server',
    user: customer.user.id,
    egg: eggId,
    docker_image: 'ghcr.io/example/demo:latest',
    startup: './start.sh',
    environment,
    limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100 },
    feature_limits: { databases: null, allocations: 2, backups: 1 },
    ...overrides,
  };
}

const post = (body: unknown, url = 'servers') => applicationRequest(t.app, bearer, 'POST', url, body);

async function createServer(overrides: Record<string, unknown> = {}) {
  const [allocation] = await freeAllocations(1);
  const response = await post(serverBody({ allocation: { default: allocation }, ...overrides }));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().attributes as { id: number; uuid: string; identifier: string; allocation: number };
}

describe('POST /api/application/servers', () => {
  it('creates the server, hands it to its daemon and shows it to its owner at once', async () => {
    const [primary, extra] = await freeAllocations(2);
    const response = await post(
      serverBody({
        allocation: { default: primary, additional: [extra] },
        external_id: 'whmcs-1',
        start_on_completion: true,
      }),
      'servers?include=allocations',
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['object', 'attributes']);
    expect(body.object).toBe('server');
    const a = body.attributes;
    expect(Object.keys(a)).toEqual([
      'id',
      'external_id',
      'uuid',
      'identifier',
      'name',
      'description',
      'status',
      'suspended',
      'limits',
      'feature_limits',
      'user',
      'node',
      'allocation',
      'nest',
      'egg',
      'container',
      'updated_at',
      'created_at',
      'relationships',
    ]);
    expect(a).toMatchObject({
      external_id: 'whmcs-1',
      identifier: a.uuid.slice(0, 8),
      name: 'Billing server',
      description: '',
      status: 'installing',
      suspended: false,
      limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100, threads: null, oom_disabled: true },
      feature_limits: { databases: 0, allocations: 2, backups: 1 },
      user: customer.user.id,
      node: node.id,
      allocation: primary,
      egg: eggId,
      container: {
        startup_command: './start.sh',
        image: 'ghcr.io/example/demo:latest',
        installed: 0,
        environment: {
          MOTD: 'Hello',
          MAX_PLAYERS: '20',
          STARTUP: './start.sh',
          P_SERVER_LOCATION: 'local',
          P_SERVER_UUID: a.uuid,
          P_SERVER_ALLOCATION_LIMIT: 2,
        },
      },
    });
    expect(
      a.relationships.allocations.data.map((item: { attributes: { id: number } }) => item.attributes.id),
    ).toEqual([primary, extra]);
    expect(daemon.calls.map((call) => [call.method, call.path, call.body])).toEqual([
      ['POST', '/api/servers', { uuid: a.uuid, start_on_completion: true }],
    ]);
    const browser = new TestBrowser(t.app);
    await browser.signIn(customer.user.username, customer.password);
    const listed = await browser.get('/api/client');
    expect(
      listed.json().data.map((item: { attributes: { identifier: string } }) => item.attributes.identifier),
    ).toContain(a.identifier);
  });

  it('answers the 422s billing modules see, and creates nothing', async () => {
    const before = await t.db.selectFrom('servers').select('id').execute();
    const io = await post(
      serverBody({ limits: { memory: 1, swap: 0, disk: 1, io: 0, cpu: 0 }, allocation: { default: 1 } }),
    );
    expect(io.statusCode).toBe(422);
    expect(io.json().errors.map((e: { detail: string }) => e.detail)).toContain(
      'The limits.io must be between 10 and 1000.',
    );
    const external = await post(serverBody({ external_id: 123, allocation: { default: 1 } }));
    expect(external.json().errors[0].detail).toBe('The external id must be a string.');
    const noAllocation = await post(serverBody());
    expect(noAllocation.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The allocation.default field is required.',
    ]);
    const backups = await post(serverBody({ feature_limits: { databases: 0 }, allocation: { default: 1 } }));
    expect(backups.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The feature_limits.backups field must be present.',
    ]);
    expect(await t.db.selectFrom('servers').select('id').execute()).toEqual(before);
  });

  it("validates every egg variable by its own rules, named '<Name> variable'", async () => {
    const [allocation] = await freeAllocations(1);
    const response = await post(
      serverBody({ allocation: { default: allocation }, environment: { MAX_PLAYERS: '500' } }),
    );
    expect(response.statusCode).toBe(422);
    expect(
      response
        .json()
        .errors.map((e: { detail: string; meta: { source_field: string } }) => [
          e.meta.source_field,
          e.detail,
        ]),
    ).toEqual([
      ['environment.MOTD', 'The Message of the Day variable field is required.'],
      ['environment.MAX_PLAYERS', 'The Maximum Players variable must be between 1 and 100.'],
    ]);
    expect(daemon.calls).toEqual([]);
  });

  it('refuses an allocation that is taken or unknown (422) and a user that does not exist', async () => {
    const { allocation } = await createServer();
    daemon.calls.length = 0;
    const taken = await post(serverBody({ allocation: { default: allocation } }));
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0].meta.source_field).toBe('allocation.default');
    const [free] = await freeAllocations(1);
    const nobody = await post(serverBody({ user: 999999, allocation: { default: free } }));
    expect(nobody.json().errors[0].detail).toBe('The selected user is invalid.');
    expect(daemon.calls).toEqual([]);
  });

  it('gives the last free allocation to exactly one of two parallel requests', async () => {
    const [allocation = 0] = await freeAllocations(1);
    const answers = await Promise.all(
      [0, 1, 2].map(() => post(serverBody({ allocation: { default: allocation } }))),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422, 422]);
    const owners = await t.db
      .selectFrom('servers')
      .select('id')
      .where('allocation_id', '=', allocation)
      .execute();
    expect(owners).toHaveLength(1);
  });

  it('removes the server again when its daemon cannot take it, and answers with the daemon error', async () => {
    answer = (call) =>
      call.method === 'POST' && call.path === '/api/servers'
        ? { status: 500, body: { error: 'disk on fire' } }
        : undefined;
    const [allocation = 0] = await freeAllocations(1);
    const response = await post(serverBody({ allocation: { default: allocation }, external_id: 'doomed' }));
    expect(response.statusCode).toBe(500);
    expect(response.json().errors[0].code).toBe('DaemonConnectionException');
    expect(
      await t.db.selectFrom('servers').select('id').where('external_id', '=', 'doomed').execute(),
    ).toEqual([]);
    const released = await t.db
      .selectFrom('allocations')
      .select('server_id')
      .where('id', '=', allocation)
      .executeTakeFirst();
    expect(released?.server_id).toBeNull();
  });
});

describe('POST /api/application/servers with deploy', () => {
  let deployNode: NodeRow;
  let locationId: number;

  beforeAll(async () => {
    const created = await applicationRequest(t.app, bearer, 'POST', 'locations', { short: 'deploy-eu' });
    locationId = created.json().attributes.id;
    deployNode = await createTestNode(t.ctx, { memory: 1000, disk: 100000, locationId });
    await t.db
      .updateTable('nodes')
      .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port, daemon_token: node.daemon_token })
      .where('id', '=', deployNode.id)
      .execute();
  });

  const deploy = (
    overrides: Record<string, unknown> = {},
    limits = { memory: 100, swap: 0, disk: 100, io: 500, cpu: 0 },
  ) =>
    post(
      serverBody({
        limits,
        deploy: { locations: [locationId], dedicated_ip: false, port_range: [], ...overrides },
      }),
    );

  it('picks a free allocation in the port range on a node of the location', async () => {
    await freeAllocations(3, deployNode, '10.9.0.1');
    const wanted = await t.db
      .selectFrom('allocations')
      .select(['id', 'port'])
      .where('node_id', '=', deployNode.id)
      .orderBy('port')
      .execute();
    const target = wanted[1];
    const response = await deploy({ port_range: [String(target?.port), 'not a range'] });
    expect(response.statusCode).toBe(201);
    expect(response.json().attributes).toMatchObject({ node: deployNode.id, allocation: target?.id });
  });

  it('gives a dedicated IP only where no server uses the address', async () => {
    await freeAllocations(2, deployNode, '10.9.0.2');
    const response = await deploy({ dedicated_ip: true });
    expect(response.statusCode).toBe(201);
    const chosen = await t.db
      .selectFrom('allocations')
      .select('ip')
      .where('id', '=', response.json().attributes.allocation)
      .executeTakeFirst();
    expect(chosen?.ip).toBe('10.9.0.2');
    const again = await deploy({ dedicated_ip: true });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatchObject({
      code: 'NoViableAllocationException',
      detail: 'No allocations satisfying the requirements for automatic deployment were found.',
    });
  });

  it('answers 400 NoViableNodeException when no node of the location has room', async () => {
    const response = await deploy({}, { memory: 5000, swap: 0, disk: 1, io: 500, cpu: 0 });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({
      code: 'NoViableNodeException',
      detail: 'No nodes satisfying the requirements specified for automatic deployment could be found.',
    });
    const wide = await deploy({ port_range: ['20000-22000'] });
    expect(wide.json().errors[0].detail).toBe(
      'Adding more than 1000 ports in a single range at once is not supported.',
    );
  });

  it("never lets parallel requests together pass the node's memory", async () => {
    await freeAllocations(10, deployNode, '10.9.0.3');
    const committed = await t.db
      .selectFrom('servers')
      .select((eb) => eb.fn.sum<number>('memory').as('m'))
      .where('node_id', '=', deployNode.id)
      .executeTakeFirst();
    const room = 1000 - Number(committed?.m ?? 0);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => deploy({}, { memory: 150, swap: 0, disk: 1, io: 500, cpu: 0 })),
    );
    const created = answers.filter((a) => a.statusCode === 201).length;
    expect(created).toBe(Math.floor(room / 150));
    expect(answers.filter((a) => a.statusCode !== 201).every((a) => a.statusCode === 400)).toBe(true);
    const after = await t.db
      .selectFrom('servers')
      .select((eb) => eb.fn.sum<number>('memory').as('m'))
      .where('node_id', '=', deployNode.id)
      .executeTakeFirst();
    expect(Number(after?.m)).toBeLessThanOrEqual(1000);
  });
});

describe('server routes', () => {
  it('views, finds by external id, lists with filters and includes', async () => {
    const server = await createServer({ external_id: 'ext-view', name: 'Findable' });
    const byId = await applicationRequest(t.app, bearer, 'GET', `servers/${server.id}?include=location`);
    expect(byId.json().attributes.relationships.location.attributes.short).toBe('local');
    const byExternal = await applicationRequest(t.app, bearer, 'GET', 'servers/external/ext-view');
    expect(byExternal.json().attributes.id).toBe(server.id);
    expect((await applicationRequest(t.app, bearer, 'GET', 'servers/external/nope')).json()).toEqual(
      notFoundJson,
    );
    expect((await applicationRequest(t.app, bearer, 'GET', 'servers/nil')).json()).toEqual(notFoundJson);
    const list = await applicationRequest(t.app, bearer, 'GET', 'servers?filter[name]=findab&sort=-id');
    expect(list.json().data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual([
      server.id,
    ]);
    expect(list.json().meta.pagination).toMatchObject({ total: 1, count: 1, per_page: 50 });
    const bad = await applicationRequest(t.app, bearer, 'GET', 'servers?filter[owner]=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].code).toBe('InvalidFilterQuery');
    const noLocations = await createApplicationBearer(t.ctx, admin, { locations: 0 });
    const gated = await applicationRequest(
      t.app,
      noLocations,
      'GET',
      `servers/${server.id}?include=location`,
    );
    expect(gated.json().attributes.relationships.location).toEqual({
      object: 'null_resource',
      attributes: null,
    });
  });

  it('needs the servers bit: read for GET, write for changes', async () => {
    const server = await createServer();
    const readOnly = await createApplicationBearer(t.ctx, admin, { servers: 1 });
    expect((await applicationRequest(t.app, readOnly, 'GET', `servers/${server.id}`)).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', `servers/${server.id}/suspend`],
      ['PATCH', `servers/${server.id}/build`],
      ['DELETE', `servers/${server.id}`],
      ['POST', 'servers'],
    ] as const) {
      expect((await applicationRequest(t.app, readOnly, method, url, [])).json()).toEqual(accessDeniedJson);
    }
  });

  it('suspends and unsuspends through the daemon; the same state twice is a no-op', async () => {
    const server = await createServer();
    daemon.calls.length = 0;
    expect(
      (await applicationRequest(t.app, bearer, 'POST', `servers/${server.id}/suspend`, [])).statusCode,
    ).toBe(204);
    expect(
      (await applicationRequest(t.app, bearer, 'POST', `servers/${server.id}/suspend`, [])).statusCode,
    ).toBe(204);
    expect(daemon.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /api/servers/${server.uuid}/sync`,
    ]);
    const view = await applicationRequest(t.app, bearer, 'GET', `servers/${server.id}`);
    expect(view.json().attributes).toMatchObject({ status: 'suspended', suspended: true });
    expect(
      (await applicationRequest(t.app, bearer, 'POST', `servers/${server.id}/unsuspend`, [])).statusCode,
    ).toBe(204);
    expect(
      (await applicationRequest(t.app, bearer, 'GET', `servers/${server.id}`)).json().attributes.status,
    ).toBeNull();
  });

  it('puts the status back when the daemon cannot be told of a suspension', async () => {
    const server = await createServer();
    answer = (call) => (call.path.endsWith('/sync') ? 'hang-up' : undefined);
    const response = await applicationRequest(t.app, bearer, 'POST', `servers/${server.id}/suspend`, []);
    expect(response.statusCode).toBe(504);
    expect(
      (await applicationRequest(t.app, bearer, 'GET', `servers/${server.id}`)).json().attributes.status,
    ).toBe('installing');
  });

  it('reinstalls through the daemon', async () => {
    const server = await createServer();
    await t.db.updateTable('servers').set({ status: null }).where('id', '=', server.id).execute();
    daemon.calls.length = 0;
    expect(
      (await applicationRequest(t.app, bearer, 'POST', `servers/${server.id}/reinstall`, [])).statusCode,
    ).toBe(204);
    expect(daemon.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /api/servers/${server.uuid}/reinstall`,
    ]);
    expect(
      (await applicationRequest(t.app, bearer, 'GET', `servers/${server.id}`)).json().attributes.status,
    ).toBe('installing');
  });

  it('updates details, and refuses a taken external id', async () => {
    const other = await createServer({ external_id: 'taken-ext' });
    const server = await createServer();
    const { user: newOwner } = await createTestUser(t.ctx);
    const updated = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/details`, {
      name: 'Renamed',
      user: newOwner.id,
      description: 'About it',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().attributes).toMatchObject({
      name: 'Renamed',
      user: newOwner.id,
      description: 'About it',
      external_id: null,
    });
    const taken = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/details`, {
      name: 'x',
      user: newOwner.id,
      external_id: 'taken-ext',
    });
    expect(taken.json().errors[0].detail).toBe('The external id has already been taken.');
    expect(other.id).not.toBe(server.id);
  });

  it('changes the build with the legacy top-level limits and moves allocations', async () => {
    const server = await createServer();
    const [added] = await freeAllocations(1);
    const response = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/build`, {
      allocation: server.allocation,
      memory: '1024',
      swap: 0,
      io: 500,
      cpu: 200,
      disk: 2048,
      add_allocations: [added],
      remove_allocations: [server.allocation],
      feature_limits: { databases: 1, allocations: 3, backups: null },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({
      allocation: added,
      limits: { memory: 1024, cpu: 200, disk: 2048 },
      feature_limits: { databases: 1, allocations: 3, backups: 0 },
    });
    const old = await t.db
      .selectFrom('allocations')
      .select('server_id')
      .where('id', '=', server.allocation)
      .executeTakeFirst();
    expect(old?.server_id).toBeNull();
    const noFallback = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/build`, {
      allocation: added,
      limits: { memory: 1, swap: 0, io: 500, cpu: 0, disk: 1 },
      remove_allocations: [added],
      feature_limits: { databases: 0, backups: 0 },
    });
    expect(noFallback.statusCode).toBe(400);
    expect(noFallback.json().errors[0].detail).toBe(
      'You are attempting to delete the default allocation for this server but there is no fallback allocation to use.',
    );
  });

  it('refuses a build that would put the node over its memory', async () => {
    const server = await createServer();
    const response = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/build`, {
      allocation: server.allocation,
      limits: { memory: 10_000_000, swap: 0, io: 500, cpu: 0, disk: 1 },
      feature_limits: { databases: 0, backups: 0 },
    });
    expect(response.statusCode).toBe(400);
    expect(
      (await applicationRequest(t.app, bearer, 'GET', `servers/${server.id}`)).json().attributes.limits
        .memory,
    ).toBe(512);
  });

  it('changes startup, image and variables (absent ones blanked, as upstream)', async () => {
    const server = await createServer();
    const response = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/startup`, {
      startup: './run.sh --fast',
      environment: { MOTD: 'Changed', MAX_PLAYERS: 5 },
      egg: eggId,
      image: 'ghcr.io/example/demo:2',
      skip_scripts: false,
      oom_disabled: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.container).toMatchObject({
      startup_command: './run.sh --fast',
      image: 'ghcr.io/example/demo:2',
      environment: { MOTD: 'Changed', MAX_PLAYERS: '5' },
    });
    const invalid = await applicationRequest(t.app, bearer, 'PATCH', `servers/${server.id}/startup`, {
      startup: 'x',
      environment: { MOTD: 'y', MAX_PLAYERS: 'many' },
      egg: eggId,
      image: 'img',
      skip_scripts: false,
    });
    expect(invalid.json().errors[0].detail).toBe('The Maximum Players variable must be an integer.');
  });

  it('deletes through the daemon and frees the allocations; force deletes without the daemon', async () => {
    const server = await createServer();
    daemon.calls.length = 0;
    expect((await applicationRequest(t.app, bearer, 'DELETE', `servers/${server.id}`, [])).statusCode).toBe(
      204,
    );
    expect(daemon.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /api/servers/${server.uuid}`,
    ]);
    const freed = await t.db
      .selectFrom('allocations')
      .select('server_id')
      .where('id', '=', server.allocation)
      .executeTakeFirst();
    expect(freed?.server_id).toBeNull();

    const stuck = await createServer();
    answer = (call) => (call.method === 'DELETE' ? 'hang-up' : undefined);
    const refused = await applicationRequest(t.app, bearer, 'DELETE', `servers/${stuck.id}`);
    expect(refused.statusCode).toBe(504);
    expect((await applicationRequest(t.app, bearer, 'GET', `servers/${stuck.id}`)).statusCode).toBe(200);
    expect((await applicationRequest(t.app, bearer, 'DELETE', `servers/${stuck.id}/force`)).statusCode).toBe(
      204,
    );
    expect((await applicationRequest(t.app, bearer, 'GET', `servers/${stuck.id}`)).statusCode).toBe(404);
  });

  it('treats a daemon that no longer knows the server as deleted', async () => {
    const server = await createServer();
    answer = (call) => (call.method === 'DELETE' ? { status: 404, body: { error: 'not found' } } : undefined);
    expect((await applicationRequest(t.app, bearer, 'DELETE', `servers/${server.id}`)).statusCode).toBe(204);
  });
});

describe('the admin audit log of a server', () => {
  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    applicationRequest(t.app, bearer, method, url, body);
  const entriesAbout = (id: number) => auditEntriesAbout(t.db, 'server', id);
  const who = () => madeWithKey(admin, bearer);
  /** An installed server (status null), as the state changes below start from. */
  const installedServer = async () => {
    const server = await createServer();
    await t.db.updateTable('servers').set({ status: null }).where('id', '=', server.id).execute();
    return server;
  };

  it('records the creation once, with the server as it was created', async () => {
    const server = await createServer({ name: 'Audited', external_id: 'audit-create' });
    expect(await entriesAbout(server.id)).toEqual([
      {
        ...who(),
        action: 'server.create',
        before: null,
        after: expect.objectContaining({
          id: server.id,
          uuid: server.uuid,
          name: 'Audited',
          external_id: 'audit-create',
          status: 'installing',
          user: customer.user.id,
          node: node.id,
          allocation: server.allocation,
          limits: expect.objectContaining({ memory: 512, disk: 1024 }),
        }),
      },
    ]);
  });

  it('records a change of details, build and startup each with the server before and after', async () => {
    const server = await createServer();
    const { user: newOwner } = await createTestUser(t.ctx);
    const details = await call('PATCH', `servers/${server.id}/details`, {
      name: 'Renamed',
      user: newOwner.id,
    });
    expect(details.statusCode).toBe(200);
    const build = await call('PATCH', `servers/${server.id}/build`, {
      allocation: server.allocation,
      limits: { memory: 1024, swap: 0, io: 500, cpu: 100, disk: 1024 },
      feature_limits: { databases: 0, backups: 1 },
    });
    expect(build.statusCode).toBe(200);
    const startup = await call('PATCH', `servers/${server.id}/startup`, {
      startup: './run.sh',
      environment: { MOTD: 'Changed', MAX_PLAYERS: 5 },
      egg: eggId,
      image: 'ghcr.io/example/demo:2',
      skip_scripts: false,
    });
    expect(startup.statusCode).toBe(200);

    const [created, ...changes] = await entriesAbout(server.id);
    expect(created?.action).toBe('server.create');
    expect(changes.map((entry) => entry.action)).toEqual([
      'server.details',
      'server.build',
      'server.startup',
    ]);
    const [detailsEntry, buildEntry, startupEntry] = changes;
    expect(detailsEntry).toMatchObject({
      ...who(),
      before: { name: 'Billing server', user: customer.user.id },
      after: { name: 'Renamed', user: newOwner.id },
    });
    expect(buildEntry).toMatchObject({
      ...who(),
      before: { limits: { memory: 512 } },
      after: { limits: { memory: 1024 } },
    });
    expect(startupEntry).toMatchObject({
      ...who(),
      before: {
        container: { startup_command: './start.sh', environment: { MOTD: 'Hello', MAX_PLAYERS: '20' } },
      },
      after: {
        container: {
          startup_command: './run.sh',
          image: 'ghcr.io/example/demo:2',
          environment: { MOTD: 'Changed', MAX_PLAYERS: '5' },
        },
      },
    });
  });

  it('records suspend, unsuspend and reinstall with the status they changed; a repeated suspend records nothing', async () => {
    const server = await installedServer();
    expect((await call('POST', `servers/${server.id}/suspend`)).statusCode).toBe(204);
    expect((await call('POST', `servers/${server.id}/suspend`)).statusCode).toBe(204);
    expect((await call('POST', `servers/${server.id}/unsuspend`)).statusCode).toBe(204);
    expect((await call('POST', `servers/${server.id}/reinstall`)).statusCode).toBe(204);

    const changes = (await entriesAbout(server.id)).slice(1);
    expect(changes).toEqual([
      {
        ...who(),
        action: 'server.suspend',
        before: expect.objectContaining({ status: null, suspended: false }),
        after: expect.objectContaining({ status: 'suspended', suspended: true }),
      },
      {
        ...who(),
        action: 'server.unsuspend',
        before: expect.objectContaining({ status: 'suspended', suspended: true }),
        after: expect.objectContaining({ status: null, suspended: false }),
      },
      {
        ...who(),
        action: 'server.reinstall',
        before: expect.objectContaining({
          status: null,
          container: expect.objectContaining({ installed: 1 }),
        }),
        after: expect.objectContaining({
          status: 'installing',
          container: expect.objectContaining({ installed: 0 }),
        }),
      },
    ]);
  });

  it('records a deletion, plain or forced, once with the server as it was', async () => {
    const plain = await createServer({ name: 'Plain delete' });
    const forced = await createServer({ name: 'Forced delete' });
    answer = (call) => (call.method === 'DELETE' && call.path.includes(forced.uuid) ? 'hang-up' : undefined);
    expect((await call('DELETE', `servers/${plain.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `servers/${forced.id}/force`)).statusCode).toBe(204);

    for (const [server, name] of [
      [plain, 'Plain delete'],
      [forced, 'Forced delete'],
    ] as const) {
      const [, deleted, ...more] = await entriesAbout(server.id);
      expect(more).toEqual([]);
      expect(deleted).toEqual({
        ...who(),
        action: 'server.delete',
        before: expect.objectContaining({ id: server.id, uuid: server.uuid, name }),
        after: null,
      });
    }
  });

  it('records nothing for a change that is refused, or that fails inside its transaction', async () => {
    const taken = await createServer({ external_id: 'audit-taken' });
    const server = await installedServer();
    const [free] = await freeAllocations(1);
    const count = await auditEntryCount(t.db);

    // 422s: a taken allocation, an unknown user, an invalid variable, a taken external id.
    expect((await post(serverBody({ allocation: { default: taken.allocation } }))).statusCode).toBe(422);
    expect((await post(serverBody({ user: 999999, allocation: { default: free } }))).statusCode).toBe(422);
    const details = { name: 'x', user: customer.user.id, external_id: 'audit-taken' };
    expect((await call('PATCH', `servers/${server.id}/details`, details)).statusCode).toBe(422);
    const startup = { startup: 'x', environment: { MOTD: 'y', MAX_PLAYERS: 'many' }, egg: eggId, image: 'i' };
    expect(
      (await call('PATCH', `servers/${server.id}/startup`, { ...startup, skip_scripts: false })).statusCode,
    ).toBe(422);
    // 400s thrown inside the build's transaction, after the server was read for its entry.
    const overMemory = {
      allocation: server.allocation,
      limits: { memory: 10_000_000, swap: 0, io: 500, cpu: 0, disk: 1 },
      feature_limits: { databases: 0, backups: 0 },
    };
    expect((await call('PATCH', `servers/${server.id}/build`, overMemory)).statusCode).toBe(400);
    const noFallback = { ...overMemory, limits: { ...overMemory.limits, memory: 1 } };
    const removePrimary = { ...noFallback, remove_allocations: [server.allocation] };
    expect((await call('PATCH', `servers/${server.id}/build`, removePrimary)).statusCode).toBe(400);
    // 404s for a server that does not exist.
    for (const [method, url] of [
      ['POST', 'servers/999999/suspend'],
      ['POST', 'servers/999999/unsuspend'],
      ['POST', 'servers/999999/reinstall'],
      ['PATCH', 'servers/999999/details'],
      ['DELETE', 'servers/999999'],
      ['DELETE', 'servers/999999/force'],
    ] as const) {
      expect((await call(method, url, details)).statusCode, url).toBe(404);
    }
    // 409: no suspension while the server is being transferred.
    const now = new Date();
    await t.db
      .insertInto('server_transfers')
      .values({
        server_id: server.id,
        successful: null,
        old_node: node.id,
        new_node: node.id,
        old_allocation: server.allocation,
        new_allocation: server.allocation,
        old_additional_allocations: '[]',
        new_additional_allocations: '[]',
        archived: false,
        failure: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect((await call('POST', `servers/${server.id}/suspend`)).statusCode).toBe(409);
    await t.db.deleteFrom('server_transfers').where('server_id', '=', server.id).execute();
    // 504: the daemon could not delete it, so its rows stay.
    answer = (call) => (call.method === 'DELETE' ? 'hang-up' : undefined);
    expect((await call('DELETE', `servers/${server.id}`)).statusCode).toBe(504);

    expect(await auditEntryCount(t.db)).toBe(count);
  });
});
