import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type RequestInfo } from '@/lib/api-client';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const client = (timeoutMs = 20_000) => createApiClient({ baseUrl: server.url, timeoutMs });

function failure(promise: Promise<unknown>): Promise<ApiError> {
  return promise.then(
    () => {
      throw new Error('the request should have failed');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ApiError);
      return error as ApiError;
    },
  );
}

describe('api client requests', () => {
  it('sends the JSON, marker and CSRF headers the panel expects', async () => {
    const meta = document.createElement('meta');
    meta.name = 'csrf-token';
    meta.content = 'token-from-the-shell';
    document.head.appendChild(meta);
    server.on('POST /auth/login', () => ({ body: { data: { complete: true } } }));

    const answer = await client().post('/auth/login', { user: 'casey', password: 'secret' });

    expect(answer).toEqual({ data: { complete: true } });
    const [request] = server.requests;
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(request?.headers['x-csrf-token']).toBe('token-from-the-shell');
    expect(request?.body).toEqual({ user: 'casey', password: 'secret' });
  });

  it('sends no content type without a body, and appends query parameters', async () => {
    server.on('GET /api/client', () => ({ body: { data: [] } }));
    await client().get('/api/client', { params: { 'filter[*]': 'mine craft', type: undefined, page: 2 } });
    const [request] = server.requests;
    expect(request?.url).toBe('/api/client?filter%5B*%5D=mine+craft&page=2');
    expect(request?.headers['content-type']).toBeUndefined();
    expect(request?.headers['x-csrf-token']).toBeUndefined();
  });

  it('answers undefined for an empty 204', async () => {
    server.on('DELETE /api/client/account/api-keys/abc', () => ({ status: 204 }));
    await expect(client().delete('/api/client/account/api-keys/abc')).resolves.toBeUndefined();
  });
});

describe('api client errors', () => {
  it("uses the first error's detail and code", async () => {
    server.on('POST /auth/login', () => errorEnvelope(400, 'DisplayException', errorMessages.loginFailed));
    const error = await failure(client().post('/auth/login', {}));
    expect(error).toMatchObject({
      status: 400,
      code: 'DisplayException',
      message: errorMessages.loginFailed,
    });
  });

  it('reports a CSRF refusal with the panel message', async () => {
    server.on('POST /auth/password', () => errorEnvelope(419, 'HttpException', errorMessages.csrfMismatch));
    const error = await failure(client().post('/auth/password', { email: 'a@b.c' }));
    expect(error.status).toBe(419);
    expect(error.message).toBe('CSRF token mismatch.');
  });

  it('falls back to an `error` string in the body', async () => {
    server.on('GET /api/client/account', () => ({ status: 403, body: { error: 'Banned from this panel.' } }));
    const error = await failure(client().get('/api/client/account'));
    expect(error.message).toBe('Banned from this panel.');
    expect(error.code).toBe('HttpStatus403');
  });

  it.each([
    ['an HTML page', { status: 502, raw: '<html>Bad Gateway</html>', contentType: 'text/html' }],
    ['an empty body', { status: 500 }],
    ['an empty errors list', { status: 500, body: { errors: [] } }],
  ])('uses the generic message for %s', async (_label, response) => {
    server.on('GET /api/client', () => response);
    const error = await failure(client().get('/api/client'));
    expect(error.message).toBe(errorMessages.serverError);
  });

  it('gives up after the time-out with a typed error', async () => {
    server.on('GET /api/client', () => ({ delayMs: 300, body: {} }));
    const error = await failure(client(50).get('/api/client'));
    expect(error).toMatchObject({ status: 0, code: 'RequestTimeout', message: errorMessages.serverError });
  });

  it('reports an unreachable panel as a network error', async () => {
    const offline = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    const error = await failure(offline.get('/api/client'));
    expect(error).toMatchObject({ status: 0, code: 'NetworkError' });
  });
});

describe('api client listeners', () => {
  it('tells listeners when each request starts and ends, failed or not', async () => {
    server.on('GET /ok', () => ({ body: {} }));
    server.on('GET /broken', () => errorEnvelope(500, 'HttpException', 'boom'));
    const api = client();
    const events: string[] = [];
    const stop = [
      api.onRequestStart((info: RequestInfo) => events.push(`start ${info.url}`)),
      api.onRequestEnd((info: RequestInfo) => events.push(`end ${info.url}`)),
      api.onError((error) => events.push(`error ${error.status}`)),
    ];

    await api.get('/ok');
    await api.get('/broken').catch(() => undefined);
    for (const off of stop) off();
    await api.get('/ok');

    expect(events).toEqual(['start /ok', 'end /ok', 'start /broken', 'error 500', 'end /broken']);
  });
});
