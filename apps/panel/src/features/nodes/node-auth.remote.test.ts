import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRow } from './nodes.service';

let t: TestApp;
let nodeA: NodeRow;
let nodeB: NodeRow;
let serverA: ServerRow;

const bearer = (node: NodeRow) => `Bearer ${node.daemon_token_id}.${t.ctx.secretBox.open(node.daemon_token)}`;
const call = (method: 'GET' | 'POST', url: string, authorization?: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: {
      accept: 'application/vnd.pterodactyl.v1+json',
      ...(authorization ? { authorization } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const statusOf = async (server: ServerRow) =>
  (
    await t.db
      .selectFrom('servers')
      .select(['status', 'installed_at'])
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow()
  ).status;

beforeAll(async () => {
  t = await buildTestApp();
  const { user } = await createTestUser(t.ctx);
  nodeA = await createTestNode(t.ctx);
  nodeB = await createTestNode(t.ctx);
  const egg = await importDemoEgg(t.ctx);
  serverA = await createTestServer(t.ctx, { owner: user, node: nodeA, eggId: egg.id, status: 'installing' });
});
afterAll(() => t.close());

describe('/api/remote authentication', () => {
  it('answers 401 with WWW-Authenticate without a bearer token, on GET and POST alike (no CSRF 419)', async () => {
    for (const [method, url] of [
      ['GET', '/api/remote/servers'],
      ['POST', '/api/remote/servers/reset'],
      ['GET', `/api/remote/servers/${serverA.uuid}`],
    ] as const) {
      const response = await call(method, url);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({
        errors: [
          {
            code: 'HttpException',
            status: '401',
            detail: 'Access to this endpoint must include an Authorization header.',
          },
        ],
      });
    }
  });

  it('answers 400 for a bearer token that is not <id>.<token>', async () => {
    for (const token of ['Bearer onlyonepart', 'Bearer .secret', 'Bearer id.', 'Bearer a.b.c']) {
      const response = await call('GET', '/api/remote/servers', token);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toEqual({
        code: 'BadRequestHttpException',
        status: '400',
        detail: 'The Authorization header provided was not in a valid format.',
      });
    }
  });

  it('answers 403 for a wrong token, an unknown token id, or the token alone', async () => {
    const token = t.ctx.secretBox.open(nodeA.daemon_token);
    // The last character changed to another (a fixed 'x' matched a token that happened to end in 'x').
    const wrong = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
    for (const authorization of [
      `Bearer ${nodeA.daemon_token_id}.${wrong}`,
      `Bearer ${nodeA.daemon_token_id}.${t.ctx.secretBox.open(nodeB.daemon_token)}`,
      `Bearer AAAAAAAAAAAAAAAA.${token}`,
      `Bearer ${token}`,
    ]) {
      const response = await call('GET', '/api/remote/servers', authorization);
      expect(response.statusCode, authorization).toBe(authorization === `Bearer ${token}` ? 400 : 403);
      if (response.statusCode === 403) {
        expect(response.json().errors[0]).toEqual({
          code: 'AccessDeniedHttpException',
          status: '403',
          detail: 'You are not authorized to access this resource.',
        });
      }
    }
    const wrongPost = await call(
      'POST',
      `/api/remote/servers/${serverA.uuid}/install`,
      `Bearer ${nodeA.daemon_token_id}.nope`,
      { successful: true },
    );
    expect(wrongPost.statusCode).toBe(403);
    expect(await statusOf(serverA)).toBe('installing');
  });

  it("answers 404 to another node's token for each route of a server, and changes nothing (CVE-2026-26016)", async () => {
    for (const [method, url, body] of [
      ['GET', `/api/remote/servers/${serverA.uuid}`, undefined],
      ['GET', `/api/remote/servers/${serverA.uuid}/install`, undefined],
      ['POST', `/api/remote/servers/${serverA.uuid}/install`, { successful: true, reinstall: false }],
    ] as const) {
      const response = await call(method, url, bearer(nodeB), body);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().errors[0]).toEqual({
        code: 'NotFoundHttpException',
        status: '404',
        detail: 'The requested resource could not be found on the server.',
      });
    }
    expect(await statusOf(serverA)).toBe('installing');
    const list = await call('GET', '/api/remote/servers', bearer(nodeB));
    expect(list.json().data).toEqual([]);
    // The right node reaches it.
    expect((await call('GET', `/api/remote/servers/${serverA.uuid}`, bearer(nodeA))).statusCode).toBe(200);
  });

  it('answers 404 for a server that does not exist', async () => {
    const response = await call(
      'GET',
      '/api/remote/servers/00000000-0000-4000-8000-000000000000',
      bearer(nodeA),
    );
    expect(response.statusCode).toBe(404);
  });
});
