import { createApplicationBearer } from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import { importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A replay of the calls the WHMCS module and Paymenter make (reference application API §7), with their headers and
 * bodies as they send them, reading the answers the way they read them. A script that holds only a `ptla_` key
 * sets up a location, a node with allocations, then runs a customer's life: create, suspend, unsuspend, upgrade,
 * change password, terminate. Each step is also checked where a user would see it (client API).
 */
let t: TestApp;
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
let daemonPort: number;
let key: string;
let nestId: number;
let eggId: number;

// biome-ignore lint/suspicious/noExplicitAny: answers are read the way the modules read them.
type Json = Record<string, any>;

/** WHMCS: `Application/vnd.pterodactyl.v1+json`, JSON bodies with Content-Length; status 0 never happens here. */
async function whmcs(method: string, path: string, body?: unknown): Promise<Json & { status_code: number }> {
  const response = await t.app.inject({
    method: method as 'GET',
    url: `/api/application/${path}`,
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'Application/vnd.pterodactyl.v1+json',
      'user-agent': 'Pterodactyl-WHMCS',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const decoded = response.body ? (JSON.parse(response.body) as Json) : {};
  return { ...decoded, status_code: response.statusCode };
}

/** Paymenter v1: `Accept: application/json`; GET data in the query string, other data as JSON (`[]` when none). */
async function paymenter(method: string, path: string, data: Record<string, unknown> | unknown[] = []) {
  const query = method === 'GET' ? new URLSearchParams(data as Record<string, string>).toString() : '';
  const response = await t.app.inject({
    method: method as 'GET',
    url: `/api/application/${path}${query ? `?${query}` : ''}`,
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    ...(method === 'GET' ? {} : { payload: JSON.stringify(data) }),
  });
  if (response.statusCode >= 300) {
    throw new Error(`Paymenter: ${(response.json() as Json).errors?.[0]?.detail}`);
  }
  return response.body ? (response.json() as Json) : {};
}

beforeAll(async () => {
  t = await buildTestApp();
  const { user: admin } = await createTestUser(t.ctx, { rootAdmin: true });
  key = await createApplicationBearer(t.ctx, admin);
  const egg = await importDemoEgg(t.ctx, 'Billing nest');
  eggId = egg.id;
  nestId = (
    await t.db.selectFrom('eggs').select('nest_id').where('id', '=', egg.id).executeTakeFirstOrThrow()
  ).nest_id;
  daemonPort = await closedPort();
});
afterAll(async () => {
  await t.close();
  await daemon?.close();
});

describe('a script holding only a ptla_ key', () => {
  let locationId: number;
  let nodeId: number;

  it('creates a location, a node with allocations, and points the node at its daemon', async () => {
    const location = await whmcs('POST', 'locations', { short: 'eu-west', long: 'Europe' });
    expect(location.status_code).toBe(201);
    locationId = location.attributes.id;
    const node = await whmcs('POST', 'nodes', {
      name: 'Billing node',
      location_id: locationId,
      fqdn: '127.0.0.1',
      scheme: 'http',
      memory: 65536,
      memory_overallocate: 0,
      disk: 1_000_000,
      disk_overallocate: 0,
      daemon_listen: daemonPort,
      daemon_sftp: 2022,
    });
    expect(node.status_code).toBe(201);
    nodeId = node.attributes.id;
    const configuration = await whmcs('GET', `nodes/${nodeId}/configuration`);
    expect(configuration.status_code).toBe(200);
    // The node's daemon, started with the token the configuration hands out.
    daemon = await startDaemonStandIn({ token: configuration.token, port: daemonPort });
    const allocations = await whmcs('POST', `nodes/${nodeId}/allocations`, {
      ip: '10.20.0.1',
      ports: ['25565-25570'],
    });
    expect(allocations.status_code).toBe(204);
  });

  it('runs the WHMCS module: test connection, create (deploy), suspend, unsuspend, upgrade, password, terminate', async () => {
    const test = await whmcs('GET', 'nodes');
    expect(test.status_code).toBe(200);
    expect(test.meta.pagination.count).toBeGreaterThan(0);

    // CreateAccount
    expect((await whmcs('GET', 'servers/external/1001')).status_code).toBe(404);
    expect((await whmcs('GET', 'users/external/501')).status_code).toBe(404);
    const byEmail = await whmcs('GET', `users?filter[email]=${encodeURIComponent('client@example.com')}`);
    expect(byEmail.meta.pagination.total).toBe(0);
    const user = await whmcs('POST', 'users', {
      username: 'Ab3dEfGh',
      email: 'client@example.com',
      first_name: 'Client',
      last_name: 'Person',
      external_id: '501',
    });
    expect(user.status_code).toBe(201);
    const userId = user.attributes.id;
    const egg = await whmcs('GET', `nests/${nestId}/eggs/${eggId}?include=variables`);
    expect(egg.status_code).toBe(200);
    const environment: Record<string, string> = {};
    for (const variable of egg.attributes.relationships.variables.data) {
      environment[variable.attributes.env_variable] = variable.attributes.default_value;
    }
    const created = await whmcs('POST', 'servers?include=allocations', {
      name: 'srv_1001',
      user: userId,
      nest: nestId,
      egg: eggId,
      docker_image: egg.attributes.docker_image,
      startup: egg.attributes.startup,
      oom_disabled: true,
      limits: { memory: 1024, swap: 0, io: 500, cpu: 100, disk: 5120 },
      feature_limits: { databases: null, allocations: 1, backups: 0 },
      deploy: { locations: [locationId], dedicated_ip: false, port_range: ['25565', '25566-25570'] },
      environment,
      start_on_completion: true,
      external_id: '1001',
    });
    expect(created.status_code).toBe(201);
    const ip = created.attributes.relationships.allocations.data[0].attributes;
    expect(ip.ip).toBe('10.20.0.1');
    expect(ip.port).toBeGreaterThanOrEqual(25565);
    const serverId = (await whmcs('GET', 'servers/external/1001')).attributes.id;
    expect(serverId).toBe(created.attributes.id);
    expect(daemon.calls.some((call) => call.method === 'POST' && call.path === '/api/servers')).toBe(true);

    // The customer sees it in the client area.
    const { password: _unused, ...customer } = await setPasswordFor(userId, 'customer password 1');
    const list = await clientList(customer.username, 'customer password 1');
    expect(list).toContain(created.attributes.identifier);

    // SuspendAccount / UnsuspendAccount (body `[]`), twice each: 204 even when already in that state.
    for (const action of ['suspend', 'suspend', 'unsuspend', 'unsuspend']) {
      expect((await whmcs('POST', `servers/${serverId}/${action}`, [])).status_code).toBe(204);
    }

    // ChangePackage: legacy top-level limits, then startup with the full environment.
    const raw = await whmcs('GET', 'servers/external/1001');
    const build = await whmcs('PATCH', `servers/${serverId}/build`, {
      allocation: raw.attributes.allocation,
      memory: 2048,
      swap: 0,
      io: 500,
      cpu: 200,
      disk: 10240,
      oom_disabled: true,
      feature_limits: { databases: 0, allocations: 1, backups: 2 },
    });
    expect(build.status_code).toBe(200);
    expect(build.attributes.limits.memory).toBe(2048);
    const startup = await whmcs('PATCH', `servers/${serverId}/startup`, {
      environment: { ...raw.attributes.container.environment, MOTD: 'Upgraded' },
      startup: raw.attributes.container.startup_command,
      egg: eggId,
      image: raw.attributes.container.image,
      skip_scripts: false,
    });
    expect(startup.status_code).toBe(200);
    expect(startup.attributes.container.environment.MOTD).toBe('Upgraded');

    // ChangePassword: GET the user, PATCH it back with a password.
    const current = await whmcs('GET', `users/${userId}`);
    const changed = await whmcs('PATCH', `users/${userId}`, {
      username: current.attributes.username,
      email: current.attributes.email,
      first_name: current.attributes.first_name,
      last_name: current.attributes.last_name,
      password: 'a brand new password',
    });
    expect(changed.status_code).toBe(200);
    expect(await clientList(current.attributes.username, 'a brand new password')).toContain(
      created.attributes.identifier,
    );

    // TerminateAccount
    expect((await whmcs('DELETE', `servers/${serverId}`)).status_code).toBe(204);
    expect((await whmcs('GET', 'servers/external/1001')).status_code).toBe(404);
    expect(await clientList(current.attributes.username, 'a brand new password')).not.toContain(
      created.attributes.identifier,
    );
  });

  it('runs Paymenter v1: deployable nodes with allocations, a fixed allocation, string settings', async () => {
    await paymenter('GET', 'servers');
    const users = await paymenter('GET', 'users', { 'filter[email]': 'pay@example.com' });
    const userId =
      users.data[0]?.attributes.id ??
      (
        await paymenter('POST', 'users', {
          email: 'pay@example.com',
          username: 'pay_Ab1c',
          first_name: 'Pay',
          last_name: 'Menter',
        })
      ).attributes.id;
    const deployable = await paymenter('GET', 'nodes/deployable', {
      memory: '512',
      disk: '1024',
      'location_ids[0]': String(locationId),
      'include[0]': 'allocations',
    });
    const node = deployable.data.find((item: Json) => item.attributes.id === nodeId);
    const free = node.attributes.relationships.allocations.data.find(
      (item: Json) => !item.attributes.assigned,
    );
    const egg = await paymenter('GET', `nests/${nestId}/eggs/${eggId}`, { include: 'variables' });
    const environment = Object.fromEntries(
      egg.attributes.relationships.variables.data.map((item: Json) => [
        item.attributes.env_variable,
        item.attributes.default_value,
      ]),
    );
    const created = await paymenter('POST', 'servers', {
      external_id: '77',
      name: 'Paymenter server',
      user: userId,
      egg: String(eggId),
      docker_image: egg.attributes.docker_image,
      startup: egg.attributes.startup,
      environment,
      skip_scripts: false,
      oom_disabled: true,
      limits: { memory: '512', swap: '0', disk: '1024', io: '500', threads: null, cpu: '100' },
      feature_limits: { databases: '0', allocations: '1', backups: '0' },
      start_on_completion: false,
      allocation: { default: free.attributes.id, additional: [] },
    });
    expect(created.attributes.identifier).toHaveLength(8);
    expect(created.attributes.allocation).toBe(free.attributes.id);
    const found = await paymenter('GET', 'servers/external/77');
    await paymenter('POST', `servers/${found.attributes.id}/suspend`);
    await paymenter('POST', `servers/${found.attributes.id}/unsuspend`);
    await paymenter('DELETE', `servers/${found.attributes.id}`);
    await expect(paymenter('GET', 'servers/external/77')).rejects.toThrow(
      'Paymenter: The requested resource could not be found on the server.',
    );
  });
});

/** Gives the (billing-created, password-less) user a password, as the set-password mail would. */
async function setPasswordFor(userId: number, password: string) {
  const user = await whmcs('GET', `users/${userId}`);
  const body = {
    username: user.attributes.username,
    email: user.attributes.email,
    first_name: user.attributes.first_name,
    last_name: user.attributes.last_name,
    password,
  };
  expect((await whmcs('PATCH', `users/${userId}`, body)).status_code).toBe(200);
  return body;
}

/** The identifiers in the customer's client-area server list, signed in with their password. */
async function clientList(username: string, password: string): Promise<string[]> {
  const { TestBrowser } = await import('@aerie/panel/test/browser');
  const browser = new TestBrowser(t.app);
  await browser.signIn(username, password);
  const response = await browser.get('/api/client');
  return response.json().data.map((item: Json) => item.attributes.identifier);
}
