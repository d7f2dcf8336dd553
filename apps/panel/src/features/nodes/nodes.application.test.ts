import type { User } from '@aerie/panel/features/users/user';
import {
  accessDeniedJson,
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
  notFoundJson,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAllocations, type NodeRow } from './nodes.service';

let t: TestApp;
let admin: User;
let adminPassword: string;
let bearer: string;
let eggId: number;
let sequence = 0;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, password: adminPassword, bearer } = await createAdminWithKey(t.ctx));
  eggId = (await importDemoEgg(t.ctx)).id;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = bearer) =>
  applicationRequest(t.app, key, method, url, body);

async function newLocation(): Promise<number> {
  sequence++;
  const response = await call('POST', 'locations', { short: `loc-${sequence}` });
  expect(response.statusCode).toBe(201);
  return response.json().attributes.id;
}

const nodeBody = (locationId: number, overrides: Record<string, unknown> = {}) => {
  sequence++;
  return {
    name: `Node ${sequence}`,
    location_id: locationId,
    fqdn: `node${sequence}.example.com`,
    scheme: 'https',
    memory: 10240,
    memory_overallocate: 0,
    disk: 10240,
    disk_overallocate: 0,
    daemon_listen: 8080,
    daemon_sftp: 2022,
    ...overrides,
  };
};

async function newNode(locationId: number, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', 'nodes', nodeBody(locationId, overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().attributes as Record<string, unknown> & { id: number; name: string };
}

const rowOf = (id: number): Promise<NodeRow> =>
  t.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const serverOn = async (nodeId: number, memory: number, disk: number) =>
  createTestServer(t.ctx, { owner: admin, node: await rowOf(nodeId), eggId, memory, disk });

const NODE_KEYS = [
  'id',
  'uuid',
  'public',
  'name',
  'description',
  'location_id',
  'fqdn',
  'scheme',
  'behind_proxy',
  'maintenance_mode',
  'memory',
  'memory_overallocate',
  'disk',
  'disk_overallocate',
  'upload_size',
  'daemon_listen',
  'daemon_sftp',
  'daemon_base',
  'created_at',
  'updated_at',
  'allocated_resources',
];

const validation = (field: string, rule: string, detail: string) => ({
  code: 'ValidationException',
  status: '422',
  detail,
  meta: { source_field: field, rule },
});

describe('POST /api/application/nodes', () => {
  it('creates a node with the defaults and answers 201 with the node and meta.resource', async () => {
    const locationId = await newLocation();
    const body = nodeBody(locationId, { name: 'Created node' });
    const response = await call('POST', 'nodes', body);
    expect(response.statusCode).toBe(201);
    const json = response.json();
    expect(Object.keys(json)).toEqual(['object', 'attributes', 'meta']);
    const { id, uuid, created_at, updated_at } = json.attributes;
    expect(json.meta).toEqual({ resource: `http://localhost:80/api/application/nodes/${id}` });
    expect(Object.keys(json.attributes)).toEqual(NODE_KEYS);
    expect(json).toMatchObject({ object: 'node' });
    expect(json.attributes).toEqual({
      id,
      uuid,
      public: true,
      name: 'Created node',
      description: null,
      location_id: locationId,
      fqdn: body.fqdn,
      scheme: 'https',
      behind_proxy: false,
      maintenance_mode: false,
      memory: 10240,
      memory_overallocate: 0,
      disk: 10240,
      disk_overallocate: 0,
      upload_size: 100,
      daemon_listen: 8080,
      daemon_sftp: 2022,
      daemon_base: '/var/lib/pterodactyl/volumes',
      created_at,
      updated_at,
      allocated_resources: { memory: 0, disk: 0 },
    });
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const row = await rowOf(id);
    expect(row.daemon_token_id).toHaveLength(16);
    // Stored sealed, never in clear.
    expect(t.ctx.secretBox.open(row.daemon_token)).toHaveLength(64);
    expect(row.daemon_token).not.toContain(t.ctx.secretBox.open(row.daemon_token));
    expect(response.body).not.toContain(row.daemon_token_id);
  });

  it('takes numeric strings and 0/1 booleans, and the optional fields', async () => {
    const locationId = await newLocation();
    const response = await call(
      'POST',
      'nodes',
      nodeBody(locationId, {
        location_id: String(locationId),
        memory: '2048',
        memory_overallocate: '-1',
        public: 0,
        behind_proxy: '1',
        maintenance_mode: true,
        upload_size: '512',
        daemon_base: '/srv/daemon-data',
      }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().attributes).toMatchObject({
      location_id: locationId,
      memory: 2048,
      memory_overallocate: -1,
      public: false,
      behind_proxy: true,
      maintenance_mode: true,
      upload_size: 512,
      daemon_base: '/srv/daemon-data',
    });
  });

  it('answers 422 with one entry per failed rule, in field order, with the reference names', async () => {
    const empty = await call('POST', 'nodes', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual([
      validation('name', 'required', 'The name field is required.'),
      validation('location_id', 'required', 'The Location field is required.'),
      validation('fqdn', 'required', 'The fqdn field is required.'),
      validation('scheme', 'required', 'The scheme field is required.'),
      validation('memory', 'required', 'The memory field is required.'),
      validation('memory_overallocate', 'required', 'The memory overallocate field is required.'),
      validation('disk', 'required', 'The disk field is required.'),
      validation('disk_overallocate', 'required', 'The disk overallocate field is required.'),
      validation('daemon_listen', 'required', 'The daemon listen field is required.'),
      validation('daemon_sftp', 'required', 'The daemon sftp field is required.'),
    ]);

    const locationId = await newLocation();
    const bad = await call(
      'POST',
      'nodes',
      nodeBody(locationId, {
        name: 'bad/name',
        public: 'yes',
        scheme: 'ftp',
        memory: 0,
        disk_overallocate: -2,
        upload_size: 2048,
        daemon_listen: 70000,
        daemon_base: 'relative/path',
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([
      validation('name', 'regex', 'The name format is invalid.'),
      validation('public', 'boolean', 'The Node Visibility field must be true or false.'),
      validation('scheme', 'in', 'The selected scheme is invalid.'),
      validation('memory', 'min', 'The memory must be at least 1.'),
      validation('disk_overallocate', 'min', 'The disk overallocate must be at least -1.'),
      validation('upload_size', 'between', 'The File Upload Size Limit must be between 1 and 1024.'),
      validation('daemon_listen', 'between', 'The daemon listen must be between 1 and 65535.'),
      validation('daemon_base', 'regex', 'The Daemon Base Path format is invalid.'),
    ]);

    for (const location_id of [999_999, 'abc', 1.5]) {
      const missing = await call('POST', 'nodes', nodeBody(locationId, { location_id }));
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual([
        validation('location_id', 'exists', 'The selected Location is invalid.'),
      ]);
    }
    const nulls = await call(
      'POST',
      'nodes',
      nodeBody(locationId, { behind_proxy: null, upload_size: '', daemon_base: null, memory: 'lots' }),
    );
    expect(nulls.json().errors).toEqual([
      validation('behind_proxy', 'boolean', 'The behind proxy field must be true or false.'),
      validation('memory', 'numeric', 'The memory must be a number.'),
      validation('upload_size', 'integer', 'The File Upload Size Limit must be an integer.'),
      validation('daemon_base', 'required', 'The Daemon Base Path field is required.'),
    ]);
  });
});

describe('GET /api/application/nodes', () => {
  it('lists nodes with pagination, filters and sorts', async () => {
    const locationId = await newLocation();
    const a = await newNode(locationId, { name: 'Listing alpha', memory: 4096, disk: 100 });
    const b = await newNode(locationId, { name: 'Listing beta', memory: 2048, disk: 300 });
    const list = await call('GET', 'nodes?filter[name]=LISTING&sort=memory&per_page=1');
    expect(list.statusCode).toBe(200);
    const json = list.json();
    expect(json.data).toEqual([
      { object: 'node', attributes: (await call('GET', `nodes/${b.id}`)).json().attributes },
    ]);
    expect(json.meta.pagination).toMatchObject({
      total: 2,
      count: 1,
      per_page: 1,
      current_page: 1,
      total_pages: 2,
    });
    const descending = await call('GET', 'nodes?filter[name]=listing&sort=-memory');
    expect(descending.json().data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual([
      a.id,
      b.id,
    ]);
    const byDisk = await call('GET', 'nodes?filter[name]=listing&sort=-disk');
    expect(byDisk.json().data[0].attributes.id).toBe(b.id);
    const row = await rowOf(a.id);
    const byToken = await call('GET', `nodes?filter[daemon_token_id]=${row.daemon_token_id.slice(2, 12)}`);
    expect(byToken.json().data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual([
      a.id,
    ]);
    const byUuid = await call('GET', `nodes?filter[uuid]=${a.uuid}&filter[fqdn]=${a.fqdn}`);
    expect(byUuid.json().meta.pagination.total).toBe(1);

    const badFilter = await call('GET', 'nodes?filter[memory]=1');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().errors[0]).toEqual({
      code: 'InvalidFilterQuery',
      status: '400',
      detail:
        'Requested filter(s) `memory` are not allowed. Allowed filter(s) are `uuid, name, fqdn, daemon_token_id`.',
    });
    const badSort = await call('GET', 'nodes?sort=name');
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().errors[0].code).toBe('InvalidSortQuery');
  });

  it('needs nodes read: 403 without it, whatever the other bits', async () => {
    const none = await createApplicationBearer(t.ctx, admin, { nodes: 0 });
    const writeOnly = await createApplicationBearer(t.ctx, admin, { nodes: 2 });
    for (const key of [none, writeOnly]) {
      for (const url of ['nodes', 'nodes/1', 'nodes/1/configuration', 'nodes/deployable?memory=1&disk=1']) {
        const response = await call('GET', url, undefined, key);
        expect(response.statusCode, url).toBe(403);
        expect(response.json()).toEqual(accessDeniedJson);
      }
    }
  });
});

describe('GET /api/application/nodes/{id}', () => {
  it('answers the node with allocated_resources summed over its servers', async () => {
    const node = await newNode(await newLocation());
    await serverOn(node.id, 1024, 2048);
    await serverOn(node.id, 512, 100);
    const response = await call('GET', `nodes/${node.id}`);
    expect(response.statusCode).toBe(200);
    const json = response.json();
    expect(Object.keys(json)).toEqual(['object', 'attributes']);
    expect(json.attributes).toEqual({ ...node, allocated_resources: { memory: 1536, disk: 2148 } });
  });

  it('answers 404 for an unknown or non-numeric id', async () => {
    for (const id of ['999999', 'nil', '0', '1.5']) {
      const response = await call('GET', `nodes/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual(notFoundJson);
    }
  });

  it('includes allocations, location and servers, each behind its own read bit', async () => {
    const locationId = await newLocation();
    const node = await newNode(locationId);
    await addAllocations(t.db, node.id, '10.1.0.1', [25565, 25566]);
    const response = await call('GET', `nodes/${node.id}?include=allocations,location,servers,unknown`);
    expect(response.statusCode).toBe(200);
    const relationships = response.json().attributes.relationships;
    expect(Object.keys(relationships)).toEqual(['allocations', 'location', 'servers']);
    expect(relationships.servers).toEqual({ object: 'list', data: [] });
    expect(relationships.allocations.object).toBe('list');
    expect(relationships.allocations.data.map((item: { attributes: unknown }) => item.attributes)).toEqual([
      { id: expect.any(Number), ip: '10.1.0.1', alias: null, port: 25565, notes: null, assigned: false },
      { id: expect.any(Number), ip: '10.1.0.1', alias: null, port: 25566, notes: null, assigned: false },
    ]);
    expect(relationships.location).toEqual({
      object: 'location',
      attributes: (await call('GET', `locations/${locationId}`)).json().attributes,
    });

    const limited = await createApplicationBearer(t.ctx, admin, { allocations: 0, locations: 0 });
    const gated = await call(
      'GET',
      `nodes/${node.id}?include[]=allocations&include[]=location`,
      undefined,
      limited,
    );
    expect(gated.statusCode).toBe(200);
    expect(gated.json().attributes.relationships).toEqual({
      allocations: { object: 'null_resource', attributes: null },
      location: { object: 'null_resource', attributes: null },
    });
  });

  it('is the nodes include of a location, behind the nodes read bit', async () => {
    const locationId = await newLocation();
    const first = await newNode(locationId);
    const second = await newNode(locationId);
    const response = await call('GET', `locations/${locationId}?include=nodes`);
    expect(response.json().attributes.relationships.nodes).toEqual({
      object: 'list',
      data: [
        { object: 'node', attributes: first },
        { object: 'node', attributes: second },
      ],
    });
    const list = await call('GET', 'locations?include=nodes.allocations&per_page=1000');
    const mine = list
      .json()
      .data.find((item: { attributes: { id: number } }) => item.attributes.id === locationId);
    expect(mine.attributes.relationships.nodes.data).toHaveLength(2);
    expect(mine.attributes.relationships.nodes.data[0].attributes.relationships.allocations).toEqual({
      object: 'list',
      data: [],
    });
    const noNodes = await createApplicationBearer(t.ctx, admin, { nodes: 0 });
    const gated = await call('GET', `locations/${locationId}?include=nodes`, undefined, noNodes);
    expect(gated.json().attributes.relationships).toEqual({
      nodes: { object: 'null_resource', attributes: null },
    });
  });
});

describe('PATCH /api/application/nodes/{id}', () => {
  it('saves the full body, keeps what is left out, and resets daemon_base when it is omitted', async () => {
    const locationId = await newLocation();
    const node = await newNode(locationId, { daemon_base: '/srv/custom', upload_size: 300, public: false });
    const before = await rowOf(node.id);
    const otherLocation = await newLocation();
    const response = await call(
      'PATCH',
      `nodes/${node.id}`,
      nodeBody(otherLocation, { name: 'Renamed node', memory: 4096, scheme: 'http', behind_proxy: true }),
    );
    expect(response.statusCode).toBe(200);
    const json = response.json();
    expect(Object.keys(json)).toEqual(['object', 'attributes']);
    expect(json.attributes).toMatchObject({
      id: node.id,
      uuid: node.uuid,
      name: 'Renamed node',
      location_id: otherLocation,
      memory: 4096,
      scheme: 'http',
      behind_proxy: true,
      public: false,
      upload_size: 300,
      daemon_base: '/var/lib/pterodactyl/volumes',
    });
    const after = await rowOf(node.id);
    // The token is kept unless reset_secret is JSON true.
    expect(after.daemon_token_id).toBe(before.daemon_token_id);
    expect(after.daemon_token).toBe(before.daemon_token);
  });

  it('issues a new token id and token for reset_secret: true only', async () => {
    const locationId = await newLocation();
    const node = await newNode(locationId);
    const before = await rowOf(node.id);
    for (const reset_secret of ['1', 1, 'true']) {
      await call('PATCH', `nodes/${node.id}`, nodeBody(locationId, { reset_secret }));
      expect((await rowOf(node.id)).daemon_token_id).toBe(before.daemon_token_id);
    }
    const response = await call('PATCH', `nodes/${node.id}`, nodeBody(locationId, { reset_secret: true }));
    expect(response.statusCode).toBe(200);
    const after = await rowOf(node.id);
    expect(after.daemon_token_id).not.toBe(before.daemon_token_id);
    expect(after.daemon_token_id).toHaveLength(16);
    const token = t.ctx.secretBox.open(after.daemon_token);
    expect(token).toHaveLength(64);
    expect(token).not.toBe(t.ctx.secretBox.open(before.daemon_token));
    expect(response.body).not.toContain(token);
  });

  it('answers 404, 422 and 403 (read-only key) without changing anything', async () => {
    const locationId = await newLocation();
    const node = await newNode(locationId);
    expect((await call('PATCH', 'nodes/999999', nodeBody(locationId))).json()).toEqual(notFoundJson);
    const invalid = await call('PATCH', `nodes/${node.id}`, { name: 'Only a name' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors[0].detail).toBe('The Location field is required.');
    const readOnly = await createApplicationBearer(t.ctx, admin, { nodes: 1 });
    for (const [method, url] of [
      ['POST', 'nodes'],
      ['PATCH', `nodes/${node.id}`],
      ['DELETE', `nodes/${node.id}`],
    ] as const) {
      const response = await call(method, url, {}, readOnly);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual(accessDeniedJson);
    }
    expect((await call('GET', `nodes/${node.id}`)).json().attributes).toEqual(node);
  });
});

describe('DELETE /api/application/nodes/{id}', () => {
  it('deletes a node without servers, with its allocations', async () => {
    const node = await newNode(await newLocation());
    await addAllocations(t.db, node.id, '10.2.0.1', [30000, 30001]);
    const response = await call('DELETE', `nodes/${node.id}`, []);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await t.db.selectFrom('nodes').select('id').where('id', '=', node.id).execute()).toEqual([]);
    expect(
      await t.db.selectFrom('allocations').select('id').where('node_id', '=', node.id).execute(),
    ).toEqual([]);
    expect((await call('DELETE', `nodes/${node.id}`)).json()).toEqual(notFoundJson);
    expect((await call('DELETE', 'nodes/abc')).statusCode).toBe(404);
  });

  it('refuses a node with servers (400 HasActiveServersException) and keeps it', async () => {
    const node = await newNode(await newLocation());
    await serverOn(node.id, 256, 256);
    const response = await call('DELETE', `nodes/${node.id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'HasActiveServersException',
          status: '400',
          detail: 'A node must have no servers linked to it in order to be deleted.',
        },
      ],
    });
    expect((await call('GET', `nodes/${node.id}`)).statusCode).toBe(200);
  });

  it('lets a location with nodes refuse deletion, and go once they are gone', async () => {
    const locationId = await newLocation();
    const node = await newNode(locationId);
    expect((await call('DELETE', `locations/${locationId}`)).statusCode).toBe(400);
    expect((await call('DELETE', `nodes/${node.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `locations/${locationId}`)).statusCode).toBe(204);
  });
});

describe('GET /api/application/nodes/{id}/configuration', () => {
  it('answers the bare Wings document, token decrypted, plus the aerie daemon environment', async () => {
    const node = await newNode(await newLocation(), {
      fqdn: 'Node.Example.COM',
      scheme: 'https',
      daemon_listen: 8443,
      daemon_sftp: 2222,
      upload_size: 256,
      daemon_base: '/srv/volumes',
    });
    const row = await rowOf(node.id);
    const token = t.ctx.secretBox.open(row.daemon_token);
    const response = await call('GET', `nodes/${node.id}/configuration`);
    expect(response.statusCode).toBe(200);
    const json = response.json();
    expect(Object.keys(json)).toEqual([
      'debug',
      'uuid',
      'token_id',
      'token',
      'api',
      'system',
      'allowed_mounts',
      'remote',
      'aerie',
    ]);
    expect(json).toEqual({
      debug: false,
      uuid: node.uuid,
      token_id: row.daemon_token_id,
      token,
      api: {
        host: '0.0.0.0',
        port: 8443,
        ssl: {
          enabled: true,
          cert: '/etc/letsencrypt/live/node.example.com/fullchain.pem',
          key: '/etc/letsencrypt/live/node.example.com/privkey.pem',
        },
        upload_limit: 256,
      },
      system: { data: '/srv/volumes', sftp: { bind_port: 2222 } },
      allowed_mounts: [],
      remote: 'http://localhost:80',
      aerie: {
        env: {
          DAEMON_HOST: '0.0.0.0',
          DAEMON_PORT: '8443',
          DAEMON_SFTP_PORT: '2222',
          DAEMON_TOKEN_ID: row.daemon_token_id,
          DAEMON_TOKEN: token,
          PANEL_URL: 'http://localhost:80',
          DAEMON_UPLOAD_LIMIT_MB: '256',
        },
      },
    });
    expect(Object.keys(json.api)).toEqual(['host', 'port', 'ssl', 'upload_limit']);
  });

  it("says which node is aerie up's own (its daemon runs with this document already), and no other", async () => {
    const locationId = await newLocation();
    const local = await newNode(locationId, { name: 'Local node', fqdn: '127.0.0.1', scheme: 'http' });
    const elsewhere = await newNode(locationId, { name: 'Local node', fqdn: '10.0.0.5', scheme: 'http' });
    expect((await call('GET', `nodes/${local.id}/configuration`)).json().aerie.started_by).toBe('aerie up');
    expect((await call('GET', `nodes/${elsewhere.id}/configuration`)).json().aerie).not.toHaveProperty(
      'started_by',
    );
  });

  it('turns ssl off behind a proxy or over http', async () => {
    const locationId = await newLocation();
    for (const overrides of [{ scheme: 'https', behind_proxy: true }, { scheme: 'http' }]) {
      const node = await newNode(locationId, overrides);
      const json = (await call('GET', `nodes/${node.id}/configuration`)).json();
      expect(json.api.ssl.enabled).toBe(false);
    }
    expect((await call('GET', 'nodes/999999/configuration')).json()).toEqual(notFoundJson);
  });

  it('hands the daemon token only to a key that may write nodes, or a signed-in root admin', async () => {
    const node = await newNode(await newLocation());
    const token = t.ctx.secretBox.open((await rowOf(node.id)).daemon_token);
    const readOnly = await createApplicationBearer(t.ctx, admin, { nodes: 1 });
    const refused = await call('GET', `nodes/${node.id}/configuration`, undefined, readOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(accessDeniedJson);
    expect(refused.body).not.toContain(token);
    // The same key still reads the node itself.
    expect((await call('GET', `nodes/${node.id}`, undefined, readOnly)).statusCode).toBe(200);

    const readWrite = await createApplicationBearer(t.ctx, admin, { nodes: 3 });
    const allowed = await call('GET', `nodes/${node.id}/configuration`, undefined, readWrite);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().token).toBe(token);

    const browser = new TestBrowser(t.app);
    await browser.signIn(admin.username, adminPassword);
    const session = await browser.get(`/api/application/nodes/${node.id}/configuration`);
    expect(session.statusCode).toBe(200);
    expect(session.json().token).toBe(token);
  });
});

describe('GET /api/application/nodes/deployable', () => {
  const ids = (response: { json(): { data: { attributes: { id: number } }[] } }) =>
    response.json().data.map((item) => item.attributes.id);

  it('keeps public nodes where committed + requested ≤ capacity × (1 + overallocate/100)', async () => {
    const locationId = await newLocation();
    const exact = await newNode(locationId, { memory: 10240, disk: 10240 });
    const over10 = await newNode(locationId, { memory: 10240, disk: 10240, disk_overallocate: 10 });
    const minusOne = await newNode(locationId, { memory: 1000, disk: 100000, memory_overallocate: -1 });
    await newNode(locationId, { memory: 100000, disk: 100000, public: false });
    const busy = await newNode(locationId, { memory: 4096, disk: 4096, maintenance_mode: true });
    await serverOn(busy.id, 1024, 2048);
    const at = (memory: number, disk: number) =>
      call('GET', `nodes/deployable?memory=${memory}&disk=${disk}&location_ids[]=${locationId}`);

    expect(ids(await at(10240, 10240))).toEqual([exact.id, over10.id]);
    // 10 % over on disk: 11264 fits a 10240 node, 11265 does not.
    expect(ids(await at(0, 11264))).toEqual([over10.id, minusOne.id]);
    // -1 is taken literally: 99 % of 1000 MiB.
    expect(ids(await at(990, 0))).toEqual([exact.id, over10.id, minusOne.id, busy.id]);
    expect(ids(await at(991, 0))).toEqual([exact.id, over10.id, busy.id]);
    // A server's memory and disk count; maintenance mode does not.
    expect(ids(await at(3072, 2048))).toEqual([exact.id, over10.id, busy.id]);
    expect(ids(await at(3073, 0))).toEqual([exact.id, over10.id]);
    expect(ids(await at(0, 2049))).toEqual([exact.id, over10.id, minusOne.id]);

    const none = await at(991, 11265);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({
      errors: [
        {
          code: 'NoViableNodeException',
          status: '400',
          detail: 'No nodes satisfying the requirements specified for automatic deployment could be found.',
        },
      ],
    });
  });

  it('is a plain list without page, paginated with page; items carry the sums and includes work', async () => {
    const locationId = await newLocation();
    const other = await newLocation();
    const first = await newNode(locationId);
    const second = await newNode(other);
    await serverOn(first.id, 100, 200);
    await addAllocations(t.db, first.id, '10.3.0.1', [27015]);
    const plain = await call(
      'GET',
      `nodes/deployable?memory=1&disk=1&location_ids[0]=${locationId}&location_ids[1]=${other}&include[0]=allocations`,
    );
    expect(plain.statusCode).toBe(200);
    const json = plain.json();
    expect(Object.keys(json)).toEqual(['object', 'data']);
    expect(ids(plain)).toEqual([first.id, second.id]);
    const attributes = json.data[0].attributes;
    expect(Object.keys(attributes)).toEqual([
      ...NODE_KEYS.slice(0, -1),
      'sum_memory',
      'sum_disk',
      'allocated_resources',
      'relationships',
    ]);
    expect(attributes).toMatchObject({
      sum_memory: '100',
      sum_disk: '200',
      allocated_resources: { memory: 100, disk: 200 },
    });
    expect(attributes.relationships.allocations.data).toEqual([
      {
        object: 'allocation',
        attributes: expect.objectContaining({ ip: '10.0.0.1', assigned: true }),
      },
      {
        object: 'allocation',
        attributes: {
          id: expect.any(Number),
          ip: '10.3.0.1',
          alias: null,
          port: 27015,
          notes: null,
          assigned: false,
        },
      },
    ]);

    const paged = await call(
      'GET',
      `nodes/deployable?memory=1&disk=1&location_ids[]=${locationId}&location_ids[]=${other}&page=2&per_page=1`,
    );
    expect(ids(paged)).toEqual([second.id]);
    expect(paged.json().meta.pagination).toMatchObject({ total: 2, count: 1, per_page: 1, current_page: 2 });
    const onlyOne = await call('GET', `nodes/deployable?memory=1&disk=1&location_ids[]=${other}`);
    expect(ids(onlyOne)).toEqual([second.id]);
  });

  it('validates its query with the reference rules', async () => {
    const missing = await call('GET', 'nodes/deployable');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([
      validation('memory', 'required', 'The memory field is required.'),
      validation('disk', 'required', 'The disk field is required.'),
    ]);
    const bad = await call('GET', 'nodes/deployable?memory=1.5&disk=-1&location_ids[]=a&location_ids[]=1.2');
    expect(bad.json().errors).toEqual([
      validation('memory', 'integer', 'The memory must be an integer.'),
      validation('disk', 'min', 'The disk must be at least 0.'),
      validation('location_ids.0', 'integer', 'The location_ids.0 must be an integer.'),
      validation('location_ids.1', 'integer', 'The location_ids.1 must be an integer.'),
    ]);
    const notList = await call('GET', 'nodes/deployable?memory=1&disk=1&location_ids=1');
    expect(notList.json().errors).toEqual([
      validation('location_ids', 'array', 'The location ids must be an array.'),
    ]);
  });
});

describe('the admin audit log of a node', () => {
  /** The node as the log keeps it: as the route renders it, without its timestamps. */
  const logged = ({ created_at: _created, updated_at: _updated, ...node }: Record<string, unknown>) => node;

  it('records its creation, its change (a new token only as redacted) and its deletion, once each', async () => {
    const locationId = await newLocation();
    const created = await newNode(locationId);
    const changed = await call(
      'PATCH',
      `nodes/${created.id}`,
      nodeBody(locationId, { name: 'Audited node', reset_secret: true }),
    );
    expect(changed.statusCode).toBe(200);
    const updated = changed.json().attributes;
    expect((await call('DELETE', `nodes/${created.id}`)).statusCode).toBe(204);

    const who = {
      actorId: admin.id,
      actorName: admin.username,
      apiKey: bearer.slice(0, 16),
      ip: '127.0.0.1',
    };
    const entries = await auditEntriesAbout(t.db, 'node', created.id);
    expect(entries).toEqual([
      { ...who, action: 'node.create', before: null, after: logged(created), createdAt: expect.any(Date) },
      {
        ...who,
        action: 'node.update',
        before: logged(created),
        after: { ...logged(updated), daemon_token: '[redacted]' },
        createdAt: expect.any(Date),
      },
      { ...who, action: 'node.delete', before: logged(updated), after: null, createdAt: expect.any(Date) },
    ]);
    expect(updated.name).toBe('Audited node');
  });

  it('records nothing for a create, change or deletion that fails', async () => {
    const locationId = await newLocation();
    const node = await newNode(locationId);
    await serverOn(node.id, 128, 128);
    const before = await auditEntryCount(t.db);
    expect((await call('POST', 'nodes', {})).statusCode).toBe(422);
    expect((await call('PATCH', `nodes/${node.id}`, { name: 'Only a name' })).statusCode).toBe(422);
    expect((await call('PATCH', 'nodes/999999', nodeBody(locationId))).statusCode).toBe(404);
    expect((await call('DELETE', 'nodes/999999')).statusCode).toBe(404);
    expect((await call('DELETE', `nodes/${node.id}`)).statusCode).toBe(400);
    expect(await auditEntryCount(t.db)).toBe(before);
  });
});
