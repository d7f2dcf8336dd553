import { readCount } from '@aerie/panel/db/dialect';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedServers } from './seed-servers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the benchmark seed', () => {
  it('makes consistent servers: each on its own allocation, with variables, listed to their owners', async () => {
    const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
    const seeded = await seedServers(t.db, t.ctx.secretBox, {
      users: 20,
      servers: 120,
      firstOwnerId: user.id,
    });
    expect(seeded).toMatchObject({ users: 20, servers: 120, subusers: 12 });

    const unlinked = await t.db
      .selectFrom('servers')
      .innerJoin('allocations', 'allocations.id', 'servers.allocation_id')
      .select((eb) => eb.fn.countAll().as('count'))
      .where((eb) =>
        eb('allocations.server_id', 'is', null).or('allocations.server_id', '!=', eb.ref('servers.id')),
      )
      .executeTakeFirstOrThrow();
    expect(readCount(unlinked.count as number)).toBe(0);
    const values = await t.db
      .selectFrom('server_variables')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    expect(readCount(values.count as number)).toBe(240);

    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const own = (await browser.get('/api/client')).json();
    expect(own.meta.pagination.total).toBe(6);
    const valheim = await t.db
      .selectFrom('servers')
      .select('name')
      .where('name', 'like', 'Valheim server %')
      .execute();
    expect(valheim.length).toBeGreaterThan(10);
    const all = (await browser.get('/api/client?type=admin-all&filter[*]=valheim')).json();
    expect(all.meta.pagination.total).toBe(valheim.length);
    const mine = (await browser.get('/api/client?filter[*]=server')).json();
    expect(
      new Set(mine.data.map((item: { attributes: { name: string } }) => item.attributes.name.split(' ')[0]))
        .size,
    ).toBeGreaterThan(1);
    expect(all.data[0].attributes.relationships.allocations.data).toHaveLength(1);
  });
});
