import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
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
import { createTestUser } from '@aerie/panel/test/factories';
import {
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import type { MountAttributes } from '@aerie/shared/mounts/mounts-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let bearer: string;
let admin: User;
let owner: User;
let node: NodeRow;
let otherNode: NodeRow;
let egg: { id: number };
let server: ServerRow;
let sequence = 0;

beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer, admin } = await createAdminWithKey(t.ctx));
  ({ user: owner } = await createTestUser(t.ctx));
  node = await createTestNode(t.ctx);
  otherNode = await createTestNode(t.ctx);
  egg = await importDemoEgg(t.ctx, 'Mount nest');
  server = await createTestServer(t.ctx, { owner, node, eggId: egg.id });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = bearer) =>
  applicationRequest(t.app, key, method, url, body);

async function newMount(overrides: Record<string, unknown> = {}): Promise<MountAttributes> {
  sequence++;
  const response = await call('POST', 'mounts', {
    name: `Maps ${sequence}`,
    source: `/srv/shared/maps-${sequence}`,
    target: '/mnt/maps',
    read_only: true,
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().attributes;
}

const daemonConfiguration = async (of: ServerRow, on: NodeRow = node) => {
  const token = `Bearer ${on.daemon_token_id}.${t.ctx.secretBox.open(on.daemon_token)}`;
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/remote/servers/${of.uuid}`,
    headers: { authorization: token, accept: 'application/json' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DaemonServerConfiguration;
};

describe('POST /api/application/mounts', () => {
  it('creates a mount with its paths worked out, and shows it at its resource URL', async () => {
    const response = await call('POST', 'mounts', {
      name: 'Shared cache',
      description: 'Mod packs',
      source: '/srv/shared/./cache/',
      target: '/mnt//cache/../cache',
      user_mountable: '1',
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      object: 'mount',
      attributes: {
        name: 'Shared cache',
        description: 'Mod packs',
        source: '/srv/shared/cache',
        target: '/mnt/cache',
        read_only: false,
        user_mountable: true,
      },
    });
    expect(body.attributes.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.meta.resource).toBe(`http://localhost:80/api/application/mounts/${body.attributes.id}`);
    const view = await call('GET', `mounts/${body.attributes.id}`);
    expect(view.json().attributes).toEqual(body.attributes);
  });

  it("refuses relative paths, the daemon's own folders, reserved targets and a taken name, storing nothing", async () => {
    const taken = await newMount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ source: 'maps' }, 'source', 'regex'],
      [{ source: '/var/lib/pterodactyl/volumes/abc' }, 'source', 'not_in'],
      [{ source: '/' }, 'source', 'not_in'],
      [{ target: '/home/container' }, 'target', 'not_in'],
      [{ target: '/home/container/maps' }, 'target', 'not_in'],
      [{ target: '/proc/../proc/self' }, 'target', 'not_in'],
      [{ target: 'mnt' }, 'target', 'regex'],
      [{ name: 'x' }, 'name', 'between'],
      [{ name: taken.name }, 'name', 'unique'],
      [{ read_only: 'yes' }, 'read_only', 'boolean'],
    ];
    const before = await t.db.selectFrom('mounts').select('id').execute();
    for (const [change, field, rule] of cases) {
      const response = await call('POST', 'mounts', {
        name: 'Refused',
        source: '/srv/shared/x',
        target: '/mnt/x',
        ...change,
      });
      expect(response.statusCode, JSON.stringify(change)).toBe(422);
      expect(response.json().errors[0].meta).toEqual({ source_field: field, rule });
    }
    expect(await t.db.selectFrom('mounts').select('id').execute()).toEqual(before);
  });

  it('creates one mount of a name when the same request comes twice at once', async () => {
    const body = { name: `Race ${++sequence}`, source: '/srv/race', target: '/mnt/race' };
    const answers = await Promise.all([call('POST', 'mounts', body), call('POST', 'mounts', body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422]);
    expect(await t.db.selectFrom('mounts').select('id').where('name', '=', body.name).execute()).toHaveLength(
      1,
    );
  });
});

describe('PATCH, list and DELETE /api/application/mounts', () => {
  it('updates every field, lists with filters, and deletes a mount no server uses', async () => {
    const mount = await newMount();
    const updated = await call('PATCH', `mounts/${mount.id}`, {
      name: `${mount.name} renamed`,
      source: '/srv/elsewhere',
      target: '/mnt/elsewhere',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().attributes).toMatchObject({
      name: `${mount.name} renamed`,
      source: '/srv/elsewhere',
      read_only: false,
    });
    const listed = await call('GET', `mounts?filter[name]=${encodeURIComponent(`${mount.name} renamed`)}`);
    expect(listed.json().data.map((item: { attributes: MountAttributes }) => item.attributes.id)).toEqual([
      mount.id,
    ]);
    expect((await call('DELETE', `mounts/${mount.id}`)).statusCode).toBe(204);
    expect((await call('GET', `mounts/${mount.id}`)).json()).toEqual(notFoundJson);
  });

  it('answers 404 for an unknown mount on every route', async () => {
    for (const [method, url, body] of [
      ['GET', 'mounts/999999', undefined],
      ['PATCH', 'mounts/999999', { name: 'None', source: '/srv/a', target: '/mnt/a' }],
      ['DELETE', 'mounts/999999', undefined],
      ['GET', 'mounts/999999/eggs', undefined],
      ['POST', 'mounts/999999/nodes', { nodes: [node.id] }],
      ['DELETE', `mounts/999999/servers/${server.id}`, undefined],
    ] as const) {
      const response = await call(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe('attaching a mount to eggs, nodes and servers', () => {
  it('sends the daemon only the mounts a server uses that are still on its egg and node', async () => {
    const mount = await newMount({ target: '/mnt/shared-maps' });
    // Not yet on the egg and node: a server may not use it.
    const early = await call('POST', `mounts/${mount.id}/servers`, { servers: [server.id] });
    expect(early.statusCode).toBe(400);
    expect(early.json().errors[0]).toMatchObject({
      code: 'DisplayException',
      detail: `The mount is not attached to the egg and node of server ${server.id}, so that server cannot use it.`,
    });
    expect((await call('POST', `mounts/${mount.id}/eggs`, { eggs: [egg.id] })).statusCode).toBe(200);
    expect(
      (await call('POST', `mounts/${mount.id}/nodes`, { nodes: [node.id, otherNode.id] })).statusCode,
    ).toBe(200);
    // Twice: the second changes nothing.
    for (let round = 0; round < 2; round++) {
      const attached = await call('POST', `mounts/${mount.id}/servers`, { servers: [server.id] });
      expect(attached.statusCode, attached.body).toBe(200);
    }
    expect((await daemonConfiguration(server)).settings.mounts).toEqual([
      { source: mount.source, target: '/mnt/shared-maps', read_only: true },
    ]);
    const included = await call('GET', `mounts/${mount.id}?include=eggs,nodes,servers`);
    const relationships = included.json().attributes.relationships;
    expect(relationships.eggs.data.map((item: { attributes: { id: number } }) => item.attributes.id)).toEqual(
      [egg.id],
    );
    expect(relationships.nodes.data).toHaveLength(2);
    expect(relationships.servers.data[0].attributes.uuid).toBe(server.uuid);
    const nodes = await call('GET', `mounts/${mount.id}/nodes`);
    expect(nodes.json().data.map((item: { object: string }) => item.object)).toEqual(['node', 'node']);

    // The node's configuration document lists the mount's source for the daemon to allow.
    const configuration = await call('GET', `nodes/${node.id}/configuration`);
    expect(configuration.json().allowed_mounts).toContain(mount.source);

    // A server still attached stops getting a mount taken off its node.
    expect((await call('DELETE', `mounts/${mount.id}/nodes/${node.id}`)).statusCode).toBe(204);
    expect((await daemonConfiguration(server)).settings.mounts).toEqual([]);
    expect((await call('GET', `nodes/${node.id}/configuration`)).json().allowed_mounts).not.toContain(
      mount.source,
    );

    // While a server uses it the mount stays; detached, it can go.
    const refused = await call('DELETE', `mounts/${mount.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      code: 'HasActiveServersException',
      detail: 'A mount must have no servers attached to it in order to be deleted.',
    });
    expect((await call('DELETE', `mounts/${mount.id}/servers/${server.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `mounts/${mount.id}`)).statusCode).toBe(204);
    expect(await t.db.selectFrom('egg_mount').selectAll().where('mount_id', '=', mount.id).execute()).toEqual(
      [],
    );
  });

  it('refuses ids that do not exist with 422 on the entry, attaching none of the list', async () => {
    const mount = await newMount();
    const response = await call('POST', `mounts/${mount.id}/eggs`, { eggs: [egg.id, 999999] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].meta).toEqual({ source_field: 'eggs.1', rule: 'exists' });
    const empty = await call('POST', `mounts/${mount.id}/nodes`, { nodes: [] });
    expect(empty.statusCode).toBe(422);
    expect(await t.db.selectFrom('egg_mount').selectAll().where('mount_id', '=', mount.id).execute()).toEqual(
      [],
    );
  });

  it('needs a key with the mounts resource, and the servers resource to list servers', async () => {
    const mount = await newMount();
    const noMounts = await createApplicationBearer(t.ctx, admin, { mounts: 0 });
    expect((await call('GET', 'mounts', undefined, noMounts)).json()).toEqual(accessDeniedJson);
    const readOnly = await createApplicationBearer(t.ctx, admin, { mounts: 1 });
    expect((await call('GET', `mounts/${mount.id}`, undefined, readOnly)).statusCode).toBe(200);
    const write = await call(
      'POST',
      'mounts',
      { name: 'Nope', source: '/srv/n', target: '/mnt/n' },
      readOnly,
    );
    expect(write.json()).toEqual(accessDeniedJson);
    const noServers = await createApplicationBearer(t.ctx, admin, { servers: 0 });
    expect((await call('GET', `mounts/${mount.id}/servers`, undefined, noServers)).json()).toEqual(
      accessDeniedJson,
    );
    // A user who is not a root admin never reaches a mount.
    const user = await createApplicationBearer(t.ctx, owner);
    expect((await call('GET', `mounts/${mount.id}`, undefined, user)).statusCode).toBe(403);
  });
});

describe('the admin audit log of a mount', () => {
  const who = () => madeWithKey(admin, bearer);

  it('records its creation, its change and its deletion with before and after, once each', async () => {
    const mount = await newMount();
    const changed = await call('PATCH', `mounts/${mount.id}`, {
      name: `${mount.name} audited`,
      source: '/srv/audited',
      target: '/mnt/audited',
    });
    expect(changed.statusCode).toBe(200);
    expect((await call('DELETE', `mounts/${mount.id}`)).statusCode).toBe(204);
    const updated = changed.json().attributes;
    expect(await auditEntriesAbout(t.db, 'mount', mount.id)).toEqual([
      { ...who(), action: 'mount.create', before: null, after: mount },
      { ...who(), action: 'mount.update', before: mount, after: updated },
      { ...who(), action: 'mount.delete', before: updated, after: null },
    ]);
  });

  it('records each attach and detach once, with the ids attached before and after', async () => {
    const mount = await newMount();
    expect((await call('POST', `mounts/${mount.id}/eggs`, { eggs: [egg.id] })).statusCode).toBe(200);
    expect(
      (await call('POST', `mounts/${mount.id}/nodes`, { nodes: [node.id, otherNode.id] })).statusCode,
    ).toBe(200);
    expect((await call('POST', `mounts/${mount.id}/servers`, { servers: [server.id] })).statusCode).toBe(200);
    expect((await call('DELETE', `mounts/${mount.id}/servers/${server.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `mounts/${mount.id}/nodes/${otherNode.id}`)).statusCode).toBe(204);
    const entries = (await auditEntriesAbout(t.db, 'mount', mount.id)).slice(1);
    const nodes = [node.id, otherNode.id].sort((a, b) => a - b);
    const id = { mount_id: mount.id };
    expect(entries).toEqual([
      { ...who(), action: 'mount.attach', before: { ...id, eggs: [] }, after: { ...id, eggs: [egg.id] } },
      { ...who(), action: 'mount.attach', before: { ...id, nodes: [] }, after: { ...id, nodes } },
      {
        ...who(),
        action: 'mount.attach',
        before: { ...id, servers: [] },
        after: { ...id, servers: [server.id] },
      },
      {
        ...who(),
        action: 'mount.detach',
        before: { ...id, servers: [server.id] },
        after: { ...id, servers: [] },
      },
      { ...who(), action: 'mount.detach', before: { ...id, nodes }, after: { ...id, nodes: [node.id] } },
    ]);
  });

  it('records nothing for a change that fails', async () => {
    const taken = await newMount();
    const used = await newMount();
    await call('POST', `mounts/${used.id}/eggs`, { eggs: [egg.id] });
    await call('POST', `mounts/${used.id}/nodes`, { nodes: [node.id] });
    await call('POST', `mounts/${used.id}/servers`, { servers: [server.id] });
    const free = await newMount();
    const before = await auditEntryCount(t.db);
    const fields = { source: '/srv/x', target: '/mnt/x' };
    expect((await call('POST', 'mounts', { name: taken.name, ...fields })).statusCode).toBe(422);
    expect((await call('PATCH', `mounts/${free.id}`, { name: taken.name, ...fields })).statusCode).toBe(422);
    expect((await call('PATCH', 'mounts/999999', { name: 'None', ...fields })).statusCode).toBe(404);
    expect((await call('DELETE', `mounts/${used.id}`)).statusCode).toBe(400);
    expect((await call('DELETE', 'mounts/999999')).statusCode).toBe(404);
    expect((await call('POST', `mounts/${free.id}/eggs`, { eggs: [egg.id, 999999] })).statusCode).toBe(422);
    expect((await call('POST', `mounts/${free.id}/servers`, { servers: [server.id] })).statusCode).toBe(400);
    expect((await call('POST', 'mounts/999999/nodes', { nodes: [node.id] })).statusCode).toBe(404);
    expect((await call('DELETE', `mounts/999999/servers/${server.id}`)).statusCode).toBe(404);
    expect(await auditEntryCount(t.db)).toBe(before);
    // The used mount is detached so later tests see the server as they expect.
    expect((await call('DELETE', `mounts/${used.id}/servers/${server.id}`)).statusCode).toBe(204);
  });
});
