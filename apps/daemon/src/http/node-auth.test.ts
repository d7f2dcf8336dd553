import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  demoConfiguration,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UUID = '6f1d2c3b-4a59-4e87-9d6c-5b4a3f2e1d0c';
let panel: PanelStandIn;
let daemon: TestDaemon;
beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, demoConfiguration(UUID));
  daemon = await startTestDaemon({
    panel,
    plugins: {
      registerWebsocket: async (app, manager) => {
        app.get<{ Params: { server: string } }>('/api/servers/:server/ws', async (request) => ({
          open: true,
          known: manager.get(request.params.server) !== undefined,
        }));
      },
      registerProtected: async (scope) => {
        scope.post('/api/servers/:server/ws/deny', async (_request, reply) => reply.status(204).send());
      },
    },
  });
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

const missingHeaders = { error: 'The required authorization heads were not present in the request.' };

describe('node token authentication', () => {
  it.each([
    ['no Authorization header', null, {}],
    ['a malformed header', null, { authorization: `Token ${NODE_TOKEN}` }],
    ['an empty bearer', null, { authorization: 'Bearer ' }],
  ])('answers 401 with WWW-Authenticate for %s', async (_name, token, headers) => {
    for (const route of ['/api/system', '/api/servers', `/api/servers/${UUID}`]) {
      const response = await daemon.request('GET', route, { token, headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(missingHeaders);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 403 for a wrong token, including the token id form the daemon itself sends', async () => {
    for (const token of ['wrong', `${NODE_TOKEN}x`, `node-token-id.${NODE_TOKEN}`]) {
      const response = await daemon.request('GET', '/api/servers', { token });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: 'You are not authorized to access this endpoint.' });
    }
  });

  it('lets the websocket route through without the node token, and guards what registerProtected adds', async () => {
    expect(await daemon.request('GET', `/api/servers/${UUID}/ws`, { token: null })).toMatchObject({
      status: 200,
      body: { open: true, known: true },
    });
    expect((await daemon.request('POST', `/api/servers/${UUID}/ws/deny`, { token: null })).status).toBe(401);
    expect(
      (await daemon.request('POST', `/api/servers/${UUID}/ws/deny`, { body: { jtis: [] } })).status,
    ).toBe(204);
  });

  it('answers 404 for a server this daemon does not have, on every server route', async () => {
    const unknown = '11111111-2222-4333-8444-555555555555';
    for (const [method, route] of [
      ['GET', ''],
      ['DELETE', ''],
      ['GET', '/logs'],
      ['POST', '/power'],
      ['POST', '/commands'],
      ['POST', '/install'],
      ['POST', '/reinstall'],
      ['POST', '/sync'],
    ] as const) {
      const response = await daemon.request(method, `/api/servers/${unknown}${route}`, {
        body: method === 'POST' ? { action: 'start', commands: ['x'] } : undefined,
      });
      expect(response, `${method} ${route}`).toMatchObject({
        status: 404,
        body: { error: 'The requested resource does not exist on this instance.' },
      });
    }
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await daemon.request('POST', `/api/servers/${UUID}/power`, { body: '{"action":' });
    expect(response).toMatchObject({
      status: 400,
      body: { error: 'The data passed in the request was not in a parsable format. Please try again.' },
    });
  });
});

describe('CORS', () => {
  it('answers preflights with 204 before authentication, allowing the panel origin', async () => {
    const response = await daemon.request('OPTIONS', `/api/servers/${UUID}/power`, {
      token: null,
      headers: { origin: panel.url, 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(panel.url);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(response.headers.get('access-control-max-age')).toBe('7200');
  });

  it('echoes an allowed extra origin and answers the panel origin to any other', async () => {
    const allowed = await daemon.request('GET', '/api/system', {
      headers: { origin: 'https://extra.example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://extra.example.com');
    const other = await daemon.request('GET', '/api/system', {
      headers: { origin: 'https://evil.example.com' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBe(panel.url);
  });
});
