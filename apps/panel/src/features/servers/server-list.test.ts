import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import {
  addServerAllocation,
  addSubuser,
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { type Actor, signedIn } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: Actor;
let bob: Actor;
let admin: Actor;
let servers: Record<'alpha' | 'beta' | 'gamma' | 'delta' | 'own', ServerRow>;

beforeAll(async () => {
  t = await buildTestApp();
  const node = await createTestNode(t.ctx);
  const egg = await importDemoEgg(t.ctx);
  [alice, bob, admin] = await Promise.all([signedIn(t), signedIn(t), signedIn(t, { rootAdmin: true })]);
  const make = (owner: Actor, name: string, ip: string, port: number, extra: object = {}) =>
    createTestServer(t.ctx, { owner: owner.user, node, eggId: egg.id, name, ip, port, ...extra });
  const alpha = await make(alice, 'Alpha Minecraft', '10.0.0.1', 25565);
  const beta = await make(alice, 'Beta Rust', '10.0.0.2', 27015, {
    externalId: 'ext-beta',
    description: 'A rust box',
  });
  await addServerAllocation(t.ctx, beta, '10.0.0.2', 25570);
  await addServerAllocation(t.ctx, beta, '10.0.0.2', 25571);
  const gamma = await make(bob, 'Gamma', '10.0.0.3', 2556);
  const delta = await make(bob, 'Delta 100%_done', '192.168.1.10', 7777);
  const own = await make(admin, 'Admin box', '10.0.0.9', 30000);
  await addSubuser(t.ctx, gamma, alice.user, ['control.console']);
  servers = { alpha, beta, gamma, delta, own };
});
afterAll(() => t.close());

const names = (body: { data: { attributes: { name: string } }[] }) =>
  body.data.map((item) => item.attributes.name);

async function list(actor: Actor, query = '') {
  const response = await actor.get(`/api/client${query}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('GET /api/client: whose servers', () => {
  it('lists the servers a user owns or is a subuser of, by id, with server_owner per item', async () => {
    const body = await list(alice);
    expect(body.object).toBe('list');
    expect(names(body)).toEqual(['Alpha Minecraft', 'Beta Rust', 'Gamma']);
    expect(
      body.data.map((item: { attributes: { server_owner: boolean } }) => item.attributes.server_owner),
    ).toEqual([true, true, false]);
    expect(body.meta.pagination).toEqual({
      total: 3,
      count: 3,
      per_page: 50,
      current_page: 1,
      total_pages: 1,
      links: [],
    });
  });

  it('type=owner keeps only owned servers; any other type is the default', async () => {
    expect(names(await list(alice, '?type=owner'))).toEqual(['Alpha Minecraft', 'Beta Rust']);
    expect(names(await list(alice, '?type=everything'))).toEqual(['Alpha Minecraft', 'Beta Rust', 'Gamma']);
  });

  it('gives a non-admin an empty list (not 403) for type=admin and type=admin-all', async () => {
    for (const type of ['admin', 'admin-all']) {
      const body = await list(alice, `?type=${type}`);
      expect(body.data).toEqual([]);
      expect(body.meta.pagination).toMatchObject({ total: 0, count: 0, total_pages: 1 });
    }
  });

  it('type=admin shows a root admin everything but its own servers; admin-all shows all', async () => {
    expect(names(await list(admin))).toEqual(['Admin box']);
    expect(names(await list(admin, '?type=admin'))).toEqual([
      'Alpha Minecraft',
      'Beta Rust',
      'Gamma',
      'Delta 100%_done',
    ]);
    expect(names(await list(admin, '?type=admin-all'))).toHaveLength(5);
  });

  it('answers guests 401', async () => {
    const response = await t.app.inject({ url: '/api/client', headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/client: filter[*] search', () => {
  const search = (value: string) => list(admin, `?type=admin-all&filter[*]=${encodeURIComponent(value)}`);

  it('matches a name fragment whatever its case', async () => {
    expect(names(await search('MINECRAFT'))).toEqual(['Alpha Minecraft']);
    expect(names(await search('ta'))).toEqual(['Beta Rust', 'Delta 100%_done']);
  });

  it('matches a uuid prefix, the full uuid, the identifier and the external id', async () => {
    expect(names(await search(servers.beta.uuid.slice(0, 6)))).toContain('Beta Rust');
    expect(names(await search(servers.gamma.uuid))).toEqual(['Gamma']);
    expect(names(await search(servers.delta.uuid_short))).toEqual(['Delta 100%_done']);
    expect(names(await search('ext-beta'))).toEqual(['Beta Rust']);
    // The external id must match exactly; a fragment finds nothing.
    expect(names(await search('ext-be'))).toEqual([]);
  });

  it('matches an IPv4 address, an address with a port prefix, and a bare :port prefix, each server once', async () => {
    expect(names(await search('10.0.0.2'))).toEqual(['Beta Rust']);
    expect(names(await search('10.0.0.2:2557'))).toEqual(['Beta Rust']);
    expect(names(await search('10.0.0.2:2556'))).toEqual([]);
    expect(names(await search(':2556'))).toEqual(['Alpha Minecraft', 'Gamma']);
    expect(names(await search(':2557'))).toEqual(['Beta Rust']);
    expect(names(await search(':7777'))).toEqual(['Delta 100%_done']);
    expect(names(await search('192.168.1.10:7777'))).toEqual(['Delta 100%_done']);
  });

  it('treats LIKE wildcards in the term as plain characters', async () => {
    expect(names(await search('100%_'))).toEqual(['Delta 100%_done']);
    expect(names(await search('%'))).toEqual(['Delta 100%_done']);
    expect(names(await search('a_p'))).toEqual([]);
  });

  it('searches only inside the list type', async () => {
    expect(names(await list(alice, '?filter[*]=delta'))).toEqual([]);
  });
});

describe('GET /api/client: partial filters', () => {
  it('matches fragments case-insensitively, a comma meaning OR', async () => {
    expect(names(await list(alice, '?filter[name]=ALP,gam'))).toEqual(['Alpha Minecraft', 'Gamma']);
    expect(names(await list(alice, '?filter[description]=rust'))).toEqual(['Beta Rust']);
    expect(names(await list(alice, '?filter[external_id]=beta'))).toEqual(['Beta Rust']);
    expect(names(await list(alice, `?filter[uuid]=${servers.gamma.uuid.slice(9, 18)}`))).toEqual(['Gamma']);
    expect(names(await list(alice, '?filter[name]=a&filter[description]=box'))).toEqual(['Beta Rust']);
  });

  it('refuses an unknown filter with 400 InvalidFilterQuery', async () => {
    const response = await alice.get('/api/client?filter[owner]=x&filter[node]=y');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'InvalidFilterQuery',
          status: '400',
          detail:
            'Requested filter(s) `owner, node` are not allowed. Allowed filter(s) are `uuid, name, description, external_id, *`.',
        },
      ],
    });
  });
});

describe('GET /api/client: pagination', () => {
  it('pages with absolute links that keep the query string', async () => {
    const first = await list(admin, '?type=admin-all&per_page=2');
    expect(names(first)).toEqual(['Alpha Minecraft', 'Beta Rust']);
    expect(first.meta.pagination).toMatchObject({
      total: 5,
      count: 2,
      per_page: 2,
      current_page: 1,
      total_pages: 3,
    });
    const next = new URL(first.meta.pagination.links.next);
    expect(first.meta.pagination.links.previous).toBeUndefined();
    expect(next.origin).toMatch(/^http:\/\//);
    expect(Object.fromEntries(next.searchParams)).toEqual({ type: 'admin-all', per_page: '2', page: '2' });

    const second = await list(admin, `${next.pathname}${next.search}`.replace('/api/client', ''));
    expect(names(second)).toEqual(['Gamma', 'Delta 100%_done']);
    expect(Object.keys(second.meta.pagination.links)).toEqual(['previous', 'next']);

    const last = await list(admin, '?type=admin-all&per_page=2&page=3');
    expect(names(last)).toEqual(['Admin box']);
    expect(Object.keys(last.meta.pagination.links)).toEqual(['previous']);
  });

  it('answers a page beyond the end with no data and a link back', async () => {
    const body = await list(admin, '?type=admin-all&per_page=2&page=9');
    expect(body.data).toEqual([]);
    expect(body.meta.pagination).toMatchObject({ total: 5, count: 0, current_page: 9, total_pages: 3 });
    expect(new URL(body.meta.pagination.links.previous).searchParams.get('page')).toBe('8');
  });

  it('caps per_page at 100 and reads nonsense as the defaults', async () => {
    expect((await list(alice, '?per_page=500')).meta.pagination.per_page).toBe(100);
    expect((await list(alice, '?per_page=abc&page=-2')).meta.pagination).toMatchObject({
      per_page: 50,
      current_page: 1,
    });
  });

  it('accepts the trailing slash nodeactyl sends', async () => {
    expect(names(await list(alice, '/?page=1'))).toHaveLength(3);
  });
});

describe('GET /api/client: includes', () => {
  it('adds egg and subusers, as a list or as include[]', async () => {
    const joined = await list(alice, '?filter[name]=gamma&include=egg,subusers');
    const relationships = joined.data[0].attributes.relationships;
    expect(relationships.egg).toEqual({
      object: 'egg',
      attributes: { uuid: expect.any(String), name: 'Aerie Demo' },
    });
    // alice is a subuser of Gamma without user.read.
    expect(relationships.subusers).toEqual({ object: 'null_resource', attributes: null });

    const array = await list(alice, '?filter[name]=alpha&include[]=subusers');
    expect(array.data[0].attributes.relationships.subusers).toEqual({ object: 'list', data: [] });
    expect(array.data[0].attributes.relationships.egg).toBeUndefined();
  });

  it('always carries allocations and variables (gated by the permissions on each server)', async () => {
    const body = await list(alice);
    const [alpha, , gamma] = body.data;
    expect(alpha.attributes.relationships.variables.object).toBe('list');
    expect(gamma.attributes.relationships.variables).toEqual({ object: 'null_resource', attributes: null });
    expect(gamma.attributes.relationships.allocations.data).toHaveLength(1);
  });
});

describe('GET /api/client: is_transferring', () => {
  it('is true only for a server whose transfer has not finished (a finished one counts as not transferring)', async () => {
    const now = new Date();
    const transfer = (serverId: number, successful: boolean | null) =>
      t.db
        .insertInto('server_transfers')
        .values({ server_id: serverId, successful, archived: false, created_at: now, updated_at: now })
        .execute();
    await transfer(servers.alpha.id, null);
    await transfer(servers.beta.id, true);
    try {
      const body = await list(alice);
      expect(
        body.data.map((item: { attributes: { name: string; is_transferring: boolean } }) => [
          item.attributes.name,
          item.attributes.is_transferring,
        ]),
      ).toEqual([
        ['Alpha Minecraft', true],
        ['Beta Rust', false],
        ['Gamma', false],
      ]);
    } finally {
      await t.db
        .deleteFrom('server_transfers')
        .where('server_id', 'in', [servers.alpha.id, servers.beta.id])
        .execute();
    }
  });
});
