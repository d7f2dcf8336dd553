import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestNode, createTestServer, type ServerRow } from '@aerie/panel/test/server-factories';
import { type Scenario, serverScenario } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * `POST /api/remote/activity`, the rows a daemon ships from its outbox: the whole body validated and bounded first
 * (nothing written when any row is bad), then each row written as its user's own on the calling node's servers
 * only, with its address and time; rows about other nodes' servers or unknown users dropped.
 */

let t: TestApp;
let s: Scenario;
let otherNode: NodeRow;
let otherServer: ServerRow;

const bearer = (node: NodeRow) => `Bearer ${node.daemon_token_id}.${t.ctx.secretBox.open(node.daemon_token)}`;
const report = (body: unknown, node: NodeRow = s.node) =>
  t.app.inject({
    method: 'POST',
    url: '/api/remote/activity',
    headers: {
      authorization: bearer(node),
      accept: 'application/vnd.pterodactyl.v1+json',
      'content-type': 'application/json',
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
const stored = () => t.db.selectFrom('activity_logs').selectAll().orderBy('id').execute();
const fieldsOf = (response: { json(): unknown }) =>
  (response.json() as { errors: { meta: { source_field: string; rule: string } }[] }).errors.map(
    (item) => `${item.meta.source_field}:${item.meta.rule}`,
  );

const row = (overrides: Record<string, unknown> = {}) => ({
  user: s.owner.user.uuid,
  server: s.server.uuid,
  event: 'server:sftp.write',
  metadata: { files: ['/server.properties'] },
  ip: '203.0.113.9',
  timestamp: '2026-03-01T10:11:12.123456789Z',
  ...overrides,
});

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['file.sftp']);
  otherNode = await createTestNode(t.ctx);
  otherServer = await createTestServer(t.ctx, { owner: s.owner.user, node: otherNode, eggId: s.egg.id });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('activity_logs').execute();
});

describe('POST /api/remote/activity', () => {
  it('writes each row as its user’s own, with the address and time the node reported', async () => {
    const response = await report({
      data: [
        row({ event: 'server:sftp.login', metadata: {} }),
        row({ event: 'server:sftp.rename', metadata: { files: [{ from: '/a.txt', to: '/b.txt' }] } }),
        row({
          event: 'server:sftp.delete',
          metadata: { files: ['/old', '/older'] },
          user: s.subuser.user.uuid,
        }),
      ],
    });
    expect(response.statusCode).toBe(204);
    const rows = await stored();
    expect(rows.map((entry) => [entry.event, entry.actor_id, entry.server_id, entry.ip])).toEqual([
      ['server:sftp.login', s.owner.user.id, s.server.id, '203.0.113.9'],
      ['server:sftp.rename', s.owner.user.id, s.server.id, '203.0.113.9'],
      ['server:sftp.delete', s.subuser.user.id, s.server.id, '203.0.113.9'],
    ]);
    expect(new Date(rows[0]?.timestamp as unknown as string).toISOString()).toBe('2026-03-01T10:11:12.123Z');

    // Read back as the owner reads the server's log: actor, address, the paths, the rename's from/to.
    const log = await s.owner.get(`/api/client/servers/${s.server.uuid_short}/activity?include=actor`);
    expect(log.statusCode).toBe(200);
    const entries = log.json().data.map((item: { attributes: Record<string, unknown> }) => item.attributes);
    expect(entries.map((entry: { event: string }) => entry.event)).toEqual([
      'server:sftp.delete',
      'server:sftp.rename',
      'server:sftp.login',
    ]);
    expect(entries[1]).toMatchObject({
      ip: '203.0.113.9',
      is_api: false,
      properties: { files: [{ from: '/a.txt', to: '/b.txt' }], count: 1 },
      relationships: { actor: { attributes: { uuid: s.owner.user.uuid } } },
    });
    expect(entries[0]).toMatchObject({ properties: { files: ['/old', '/older'], count: 2 } });
  });

  it('drops rows about another node’s servers and unknown users, writing the rest', async () => {
    const response = await report({
      data: [
        row({ server: otherServer.uuid }),
        row({ user: '00000000-0000-4000-8000-000000000000' }),
        row({ metadata: { files: ['/kept.txt'] } }),
      ],
    });
    expect(response.statusCode).toBe(204);
    const rows = await stored();
    expect(rows.map((entry) => [entry.server_id, entry.properties])).toEqual([
      [s.server.id, JSON.stringify({ files: ['/kept.txt'] })],
    ]);
    // The other server's own node may write into it.
    expect((await report({ data: [row({ server: otherServer.uuid })] }, otherNode)).statusCode).toBe(204);
    expect((await stored()).filter((entry) => entry.server_id === otherServer.id)).toHaveLength(1);
  });

  it('clamps a timestamp ahead of the panel’s clock to now', async () => {
    const before = t.ctx.clock().getTime();
    expect((await report({ data: [row({ timestamp: '2999-01-01T00:00:00Z' })] })).statusCode).toBe(204);
    const [entry] = await stored();
    const at = new Date(entry?.timestamp as unknown as string).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(t.ctx.clock().getTime() + 1000);
  });

  it('refuses the whole body with 422 for any bad row, writing nothing', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['data:required']],
      [{ data: [] }, ['data:required']],
      [{ data: Array.from({ length: 101 }, () => row()) }, ['data:max']],
      [{ data: [row(), row({ event: 'server:power.start' })] }, ['data.1.event:in']],
      [{ data: [row({ event: 'server:sftp.denied' })] }, ['data.0.event:in']],
      [
        { data: [row({ user: 'nobody', server: 7, ip: '999.1.1.1', timestamp: 'yesterday' })] },
        ['data.0.user:uuid', 'data.0.server:string', 'data.0.ip:ip', 'data.0.timestamp:regex'],
      ],
      [{ data: [row({ timestamp: '1969-12-31T23:59:59Z' })] }, ['data.0.timestamp:regex']],
      [{ data: [row({ metadata: {} })] }, ['data.0.metadata.files:required']],
      [{ data: [row({ metadata: 'files' })] }, ['data.0.metadata:array']],
      [
        { data: [row({ metadata: { files: ['/a', 3, ''] } })] },
        ['data.0.metadata.files.1:string', 'data.0.metadata.files.2:required'],
      ],
      [
        { data: [row({ event: 'server:sftp.rename', metadata: { files: ['/a'] } })] },
        ['data.0.metadata.files.0:array'],
      ],
      [
        { data: [row({ metadata: { files: Array.from({ length: 51 }, (_, i) => `/f${i}`) } })] },
        ['data.0.metadata.files:max'],
      ],
      [{ data: [row({ metadata: { files: [`/${'a'.repeat(4096)}`] } })] }, ['data.0.metadata.files.0:max']],
      [
        { data: [row({ event: 'server:sftp.login', metadata: { note: 'x'.repeat(16_400) } })] },
        ['data.0.metadata:max'],
      ],
      [
        { data: [row({ event: 'server:sftp.login', metadata: { a: { b: { c: { d: {} } } } } })] },
        ['data.0.metadata:'],
      ],
    ];
    for (const [body, fields] of cases) {
      const response = await report(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 120)).toBe(422);
      expect(response.json().errors[0].code).toBe('ValidationException');
      expect(fieldsOf(response), JSON.stringify(body).slice(0, 120)).toEqual(fields);
    }
    expect(await stored()).toEqual([]);
  });

  it('refuses a body nested 400,000 levels deep (400 at the parser), and metadata past its own 4 levels with 422', async () => {
    const depth = 400_000;
    const deep = await report(`{"data":[{"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}]}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().errors[0].detail).toContain('Maximum stack depth exceeded');
    const nested = await report(`{"data":[{"metadata":${'['.repeat(20)}${']'.repeat(20)}}]}`);
    expect(nested.statusCode).toBe(422);
    expect(nested.json().errors[0].meta.source_field).toBe('data.0.metadata');
    expect(await stored()).toEqual([]);
  });

  it('needs the node’s token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/remote/activity',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ data: [row()] }),
    });
    expect(response.statusCode).toBe(401);
    expect(await stored()).toEqual([]);
  });
});
