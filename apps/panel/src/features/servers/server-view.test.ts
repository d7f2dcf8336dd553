import { readFileSync } from 'node:fs';
import { demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import { importEgg } from '@aerie/panel/features/eggs/import-egg';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addServerAllocation, createTestServer } from '@aerie/panel/test/server-factories';
import { type Scenario, serverScenario, setServerState } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let s: Scenario;
let url: string;
beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['control.console', 'allocation.read', 'startup.read', 'user.read']);
  url = `/api/client/servers/${s.server.uuid_short}`;
});
afterAll(() => t.close());

describe('GET /api/client/servers/{server}: who may see it', () => {
  it('shows the server to its owner with the wildcard permission', async () => {
    const response = await s.owner.get(url);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.object).toBe('server');
    expect(body.attributes.server_owner).toBe(true);
    expect(body.meta).toEqual({ is_server_owner: true, user_permissions: ['*'] });
  });

  it('shows it to a subuser with the stored permissions, in stored order', async () => {
    const response = await s.subuser.get(url);
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.server_owner).toBe(false);
    expect(response.json().meta).toEqual({
      is_server_owner: false,
      user_permissions: ['control.console', 'allocation.read', 'startup.read', 'user.read'],
    });
  });

  it('shows it to a root admin with the admin permissions', async () => {
    const response = await s.admin.get(url);
    expect(response.statusCode).toBe(200);
    expect(response.json().meta).toEqual({
      is_server_owner: false,
      user_permissions: [
        '*',
        'admin.websocket.errors',
        'admin.websocket.install',
        'admin.websocket.transfer',
      ],
    });
  });

  it('answers a stranger 404 without revealing the server', async () => {
    const response = await s.stranger.get(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'NotFoundHttpException',
          status: '404',
          detail: 'The requested resource does not exist on this server.',
        },
      ],
    });
  });

  it('answers 404 for an identifier that names no server, and 401 to guests', async () => {
    for (const id of ['abcdef12', 'not-a-server', '00000000-0000-4000-8000-000000000000']) {
      const response = await s.owner.get(`/api/client/servers/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0].detail).toBe(
        'The requested resource could not be found on the server.',
      );
    }
    const guest = await t.app.inject({ url, headers: { accept: 'application/json' } });
    expect(guest.statusCode).toBe(401);
  });

  it('finds the server by its full uuid as well as by its 8-character identifier', async () => {
    const response = await s.owner.get(`/api/client/servers/${s.server.uuid}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.identifier).toBe(s.server.uuid_short);
  });

  it('still answers while the server is suspended, installing or transferring', async () => {
    for (const state of [{ status: 'suspended' }, { status: 'installing' }, { transferring: true }]) {
      await setServerState(t, s.server, s.node, state);
      const response = await s.subuser.get(url);
      expect(response.statusCode).toBe(200);
    }
    await setServerState(t, s.server, s.node, { status: 'installing' });
    expect((await s.owner.get(url)).json().attributes).toMatchObject({
      status: 'installing',
      is_installing: true,
      is_suspended: false,
    });
    await setServerState(t, s.server, s.node, { transferring: true });
    expect((await s.owner.get(url)).json().attributes.is_transferring).toBe(true);
    await setServerState(t, s.server, s.node, {});
  });
});

describe('GET /api/client/servers/{server}: what it shows', () => {
  let egg: { id: number };
  beforeAll(async () => {
    const demo = parseEggExportText(readFileSync(demoEggPath, 'utf8'));
    egg = await importEgg(
      t.db,
      {
        ...demo,
        name: 'Invocation egg',
        features: ['eula'],
        startup:
          'run --ip {{SERVER_IP}} --port {{SERVER_PORT}} --memory {{SERVER_MEMORY}} --motd "{{MOTD}}" --key {{SECRET_KEY}}',
        variables: [
          ...demo.variables,
          {
            name: 'Secret key',
            description: 'Not for players.',
            env_variable: 'SECRET_KEY',
            default_value: 'hunter2',
            user_viewable: false,
            user_editable: false,
            rules: 'required|string',
            field_type: 'text',
          },
        ],
      },
      { nestName: 'Invocation nest' },
    );
  });

  it('has every attribute of the reference transformer, variables substituted in the invocation', async () => {
    const server = await createTestServer(t.ctx, {
      owner: s.owner.user,
      node: s.node,
      eggId: egg.id,
      ip: '10.1.2.3',
      port: 27015,
      name: 'Full server',
      description: 'All of it',
      memory: 2048,
      environment: { MOTD: 'Hello there' },
    });
    await addServerAllocation(t.ctx, server, '10.1.2.3', 27016, 'RCON');
    const response = await s.owner.get(`/api/client/servers/${server.uuid_short}?include=egg,subusers`);
    expect(response.statusCode).toBe(200);
    const attributes = response.json().attributes;
    expect(Object.keys(attributes)).toEqual([
      'server_owner',
      'identifier',
      'internal_id',
      'uuid',
      'name',
      'node',
      'is_node_under_maintenance',
      'sftp_details',
      'description',
      'limits',
      'invocation',
      'docker_image',
      'egg_features',
      'feature_limits',
      'status',
      'is_suspended',
      'is_installing',
      'is_transferring',
      'relationships',
    ]);
    expect(attributes).toMatchObject({
      server_owner: true,
      identifier: server.uuid_short,
      internal_id: server.id,
      uuid: server.uuid,
      name: 'Full server',
      node: s.node.name,
      is_node_under_maintenance: false,
      sftp_details: { ip: s.node.fqdn, port: 2022 },
      description: 'All of it',
      limits: { memory: 2048, swap: 0, disk: 2048, io: 500, cpu: 100, threads: null, oom_disabled: true },
      invocation: 'run --ip 10.1.2.3 --port 27015 --memory 2048 --motd "Hello there" --key [hidden]',
      docker_image: 'node:20-bookworm-slim',
      egg_features: ['eula'],
      feature_limits: { databases: 0, allocations: null, backups: 0 },
      status: null,
      is_suspended: false,
      is_installing: false,
      is_transferring: false,
    });
    const { allocations, variables, egg: eggItem, subusers } = attributes.relationships;
    expect(allocations.object).toBe('list');
    expect(allocations.data.map((a: { attributes: unknown }) => a.attributes)).toEqual([
      {
        id: server.allocation_id,
        ip: '10.1.2.3',
        ip_alias: null,
        port: 27015,
        notes: null,
        is_default: true,
      },
      {
        id: expect.any(Number),
        ip: '10.1.2.3',
        ip_alias: null,
        port: 27016,
        notes: 'RCON',
        is_default: false,
      },
    ]);
    // Only user-viewable variables are listed.
    expect(
      variables.data.map((v: { object: string; attributes: { env_variable: string } }) => v.object),
    ).toEqual(['egg_variable', 'egg_variable']);
    expect(variables.data[0].attributes).toEqual({
      name: 'Message of the Day',
      description: expect.any(String),
      env_variable: 'MOTD',
      default_value: 'Welcome to the Aerie demo server!',
      server_value: 'Hello there',
      is_editable: true,
      rules: 'required|string|max:64',
    });
    expect(eggItem).toEqual({
      object: 'egg',
      attributes: { uuid: expect.any(String), name: 'Invocation egg' },
    });
    expect(subusers).toEqual({ object: 'list', data: [] });
  });

  it('hides what a subuser may not read: other allocations, notes, variables, values, subusers', async () => {
    const response = await s.limited.get(`${url}?include[]=subusers&include[]=egg`);
    expect(response.statusCode).toBe(200);
    const { relationships, invocation } = response.json().attributes;
    expect(relationships.variables).toEqual({ object: 'null_resource', attributes: null });
    expect(relationships.subusers).toEqual({ object: 'null_resource', attributes: null });
    expect(relationships.egg.object).toBe('egg');
    expect(relationships.allocations.data).toHaveLength(1);
    expect(relationships.allocations.data[0].attributes).toMatchObject({ is_default: true, notes: null });
    expect(invocation).toBe('node demo-server.mjs');
  });

  it('shows subusers with their permissions to a subuser holding user.read', async () => {
    await addServerAllocation(t.ctx, s.server, '10.0.0.1', 40001, 'second port');
    const response = await s.subuser.get(`${url}?include=subusers,unknown`);
    const { relationships } = response.json().attributes;
    expect(relationships.egg).toBeUndefined();
    expect(relationships.allocations.data).toHaveLength(2);
    const listed = relationships.subusers.data.map(
      (item: { attributes: { username: string; permissions: string[] } }) => [
        item.attributes.username,
        item.attributes.permissions,
      ],
    );
    expect(listed).toEqual([
      [s.subuser.user.username, ['control.console', 'allocation.read', 'startup.read', 'user.read']],
      [s.limited.user.username, ['websocket.connect']],
    ]);
    expect(relationships.subusers.data[0].attributes).toMatchObject({
      uuid: s.subuser.user.uuid,
      email: s.subuser.user.email,
      '2fa_enabled': false,
      // No avatar service is configured: no picture URL, the page draws initials.
      image: '',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    });
  });
});
