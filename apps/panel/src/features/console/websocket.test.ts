import { createHash } from 'node:crypto';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addSubuser, createTestNode, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  type Scenario,
  serverScenario,
  setServerState,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let s: Scenario;
let url: string;
let nodeKey: Uint8Array;
beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['websocket.connect', 'control.console', 'file.read']);
  url = `/api/client/servers/${s.server.uuid_short}/websocket`;
  nodeKey = new TextEncoder().encode(t.ctx.secretBox.open(s.node.daemon_token));
});
afterAll(() => t.close());

async function credentials(actor: Actor, path = url) {
  const response = await actor.get(path);
  expect(response.statusCode).toBe(200);
  const body = response.json() as { data: { token: string; socket: string } };
  expect(Object.keys(body)).toEqual(['data']);
  return body.data;
}

describe('GET /api/client/servers/{server}/websocket', () => {
  it('gives the owner a token signed with the node token, with the reference claims', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { token, socket } = await credentials(s.owner);
    expect(socket).toBe(`ws://${s.node.fqdn}:8080/api/servers/${s.server.uuid}/ws`);
    const { payload, protectedHeader } = await jwtVerify(token, nodeKey, {
      issuer: 'http://panel.test',
      audience: `http://${s.node.fqdn}:8080`,
      algorithms: ['HS256'],
    });
    const jti = createHash('md5').update(`${s.owner.user.id}${s.server.uuid}`).digest('hex');
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', jti });
    expect(payload).toEqual({
      iss: 'http://panel.test',
      aud: `http://${s.node.fqdn}:8080`,
      jti,
      iat: expect.any(Number),
      nbf: expect.any(Number),
      exp: expect.any(Number),
      user_uuid: s.owner.user.uuid,
      user_id: s.owner.user.id,
      unique_id: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
      server_uuid: s.server.uuid,
      permissions: ['*'],
      purpose: 'websocket',
    });
    const iat = payload.iat as number;
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(payload.nbf).toBe(iat - 300);
    expect(payload.exp).toBe(iat + 600);
  });

  it('refuses a token checked with another key', async () => {
    const { token } = await credentials(s.owner);
    await expect(jwtVerify(token, new TextEncoder().encode('not the node token'))).rejects.toThrow();
  });

  it('makes every token distinct but keeps the jti per user and server', async () => {
    const [a, b] = [await credentials(s.owner), await credentials(s.owner)];
    expect(a.token).not.toBe(b.token);
    expect(decodeProtectedHeader(a.token).jti).toBe(decodeProtectedHeader(b.token).jti);
  });

  it("gives a subuser its stored permissions, in order, and a root admin the admin's", async () => {
    const sub = await jwtVerify((await credentials(s.subuser)).token, nodeKey);
    expect(sub.payload.permissions).toEqual(['websocket.connect', 'control.console', 'file.read']);
    expect(sub.payload.user_id).toBe(s.subuser.user.id);
    const admin = await jwtVerify((await credentials(s.admin)).token, nodeKey);
    expect(admin.payload.permissions).toEqual([
      '*',
      'admin.websocket.errors',
      'admin.websocket.install',
      'admin.websocket.transfer',
    ]);
  });

  it('refuses a subuser without websocket.connect with 403 HttpForbiddenException, a stranger with 404', async () => {
    const without = await signedIn(t);
    await addSubuser(t.ctx, s.server, without.user, ['control.console']);
    const response = await without.get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'HttpForbiddenException',
          status: '403',
          detail: "You do not have permission to connect to this server's websocket.",
        },
      ],
    });
    expect((await s.stranger.get(url)).statusCode).toBe(404);
  });

  it('points at wss:// for an https node', async () => {
    const node = await createTestNode(t.ctx, {
      scheme: 'https',
      fqdn: 'secure.example.com',
      daemonListen: 443,
    });
    const server = await createTestServer(t.ctx, { owner: s.owner.user, node, eggId: s.egg.id });
    const { token, socket } = await credentials(s.owner, `/api/client/servers/${server.uuid}/websocket`);
    expect(socket).toBe(`wss://secure.example.com:443/api/servers/${server.uuid}/ws`);
    const key = new TextEncoder().encode(t.ctx.secretBox.open(node.daemon_token));
    const { payload } = await jwtVerify(token, key, { audience: 'https://secure.example.com:443' });
    expect(payload.server_uuid).toBe(server.uuid);
  });

  it.each([
    [{ status: 'installing' }, 409, 200],
    [{ status: 'restoring_backup' }, 409, 200],
    [{ transferring: true }, 409, 200],
    [{ status: 'suspended' }, 409, 409],
    [{ maintenance: true }, 409, 409],
  ])('in state %o answers the owner %i and a root admin %i', async (state, ownerStatus, adminStatus) => {
    await setServerState(t, s.server, s.node, state);
    try {
      const owner = await s.owner.get(url);
      expect(owner.statusCode).toBe(ownerStatus);
      expect(owner.json().errors[0].code).toBe('ServerStateConflictException');
      expect((await s.admin.get(url)).statusCode).toBe(adminStatus);
    } finally {
      await setServerState(t, s.server, s.node, {});
    }
  });
});
