import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import { bootstrapFirstAdmin } from '@aerie/panel/features/users/bootstrap-admin';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { createTestDatabase, type TestDatabase } from '@aerie/panel/test/test-database';
import { nodeBodySchema } from '@aerie/shared/nodes/nodes-bodies';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapServers } from './bootstrap-servers';

let dataDir: string;
let database: TestDatabase;
const secretBox = new SecretBox(randomBytes(32));
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-bootstrap-servers-'));
  database = await createTestDatabase(dataDir);
  await migrateToLatest(database.db);
});
afterAll(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One `aerie up` boot: the first-admin bootstrap, then the servers bootstrap. */
async function boot(env: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: dataDir, DAEMON_PORT: '8181', DAEMON_SFTP_PORT: '2222', ...env });
  const admin = await bootstrapFirstAdmin(database.db, { password: 'password123' }, () => {});
  const adminId = admin.created ? ((await findUserByLogin(database.db, 'admin'))?.id ?? null) : null;
  const printed: string[] = [];
  const result = await bootstrapServers(database.db, secretBox, config, {
    firstAdminId: adminId,
    print: (line) => printed.push(line),
  });
  return { result, printed };
}

describe('the servers bootstrap of aerie up', () => {
  it('creates the local node, its ports, the demo egg and exactly one demo server across two boots', async () => {
    const first = await boot();
    expect(first.printed).toEqual(['Created the demo server "Demo Server" on the local node.']);
    const node = await database.db.selectFrom('nodes').selectAll().executeTakeFirstOrThrow();
    expect(node).toMatchObject({
      name: 'Local node',
      fqdn: '127.0.0.1',
      scheme: 'http',
      daemon_listen: 8181,
      // The volumes of its daemon, absolute, so the admin's node form takes it back unchanged.
      daemon_base: join(dataDir, 'daemon', 'volumes'),
    });
    // Saving the node unchanged passes the form's rules (the relative 'volumes' did not).
    const unchanged = nodeBodySchema(true).safeParse({ ...node, location_id: node.location_id });
    expect(unchanged.success, JSON.stringify(unchanged.error?.issues)).toBe(true);
    expect(node.daemon_token_id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(secretBox.open(node.daemon_token)).toMatch(/^[A-Za-z0-9]{64}$/);

    const second = await boot({ DAEMON_PORT: '8282' });
    expect(second.printed).toEqual([]);
    expect(second.result.demoServer).toBeNull();

    const nodes = await database.db.selectFrom('nodes').selectAll().execute();
    expect(nodes).toHaveLength(1);
    // The token is generated once and kept; the daemon port follows the configuration.
    expect(nodes[0]).toMatchObject({
      daemon_token_id: node.daemon_token_id,
      daemon_token: node.daemon_token,
    });
    expect(nodes[0]?.daemon_listen).toBe(8282);

    const ports = await database.db
      .selectFrom('allocations')
      .select(['ip', 'port'])
      .orderBy('port')
      .execute();
    expect(ports).toHaveLength(11);
    expect(ports[0]).toEqual({ ip: '127.0.0.1', port: 25565 });
    expect(ports[10]).toEqual({ ip: '127.0.0.1', port: 25575 });

    const eggs = await database.db.selectFrom('eggs').select(['id', 'name']).execute();
    expect(eggs.map((egg) => egg.name)).toEqual(['Aerie Demo']);
    const nest = await database.db.selectFrom('nests').select('name').execute();
    expect(nest).toEqual([{ name: 'Aerie' }]);

    const servers = await database.db.selectFrom('servers').selectAll().execute();
    expect(servers).toHaveLength(1);
    const admin = await findUserByLogin(database.db, 'admin');
    expect(servers[0]).toMatchObject({
      name: 'Demo Server',
      owner_id: admin?.id,
      node_id: node.id,
      memory: 512,
      disk: 1024,
      cpu: 100,
      allocation_limit: 3,
      backup_limit: 3,
      database_limit: 2,
      // The daemon installs it once it is up (daemon-installs.ts).
      status: 'installing',
      installed_at: null,
    });
    const primary = await database.db
      .selectFrom('allocations')
      .selectAll()
      .where('id', '=', servers[0]?.allocation_id as number)
      .executeTakeFirstOrThrow();
    expect(primary).toMatchObject({ port: 25565, server_id: servers[0]?.id });
    const variables = await database.db
      .selectFrom('server_variables')
      .innerJoin('egg_variables', 'egg_variables.id', 'server_variables.variable_id')
      .select(['egg_variables.default_value', 'server_variables.variable_value'])
      .where('server_id', '=', servers[0]?.id as number)
      .execute();
    expect(variables.length).toBeGreaterThan(0);
    for (const variable of variables) expect(variable.variable_value).toBe(variable.default_value);
  });

  it('refuses a port range written the wrong way round', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, DEMO_PORT_RANGE: '25575-25565' })).toThrow(
      'DEMO_PORT_RANGE: must run from a lower to a higher port, within 1-65535 (got "25575-25565")',
    );
  });
});
