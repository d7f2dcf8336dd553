import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface Operation {
  summary: string;
  requestBody?: {
    content: { 'application/json': { schema: { properties: Record<string, unknown>; required?: string[] } } };
  };
  parameters?: { name: string; in: string; required: boolean }[];
  'x-aerie-key-resource'?: string;
}

describe('/api/docs', () => {
  it('lists every client and application route Fastify has, with body schemas from the routes’ own zod', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const expected of [
      'GET /api/client',
      'POST /api/client/account/api-keys',
      'GET /api/client/servers/{server}/files/list',
      'POST /api/application/servers',
      'DELETE /api/application/servers/{id}/{force}',
      'GET /api/application/locations/{id}',
      'POST /api/application/api-keys',
      'POST /api/application/servers/{id}/transfer',
      'POST /api/application/servers/{id}/transfer/cancel',
    ]) {
      expect(operations).toContain(expected);
    }
    const create = document.paths['/api/application/servers']?.post;
    expect(create?.['x-aerie-key-resource']).toBe('servers');
    const body = create?.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(
      expect.arrayContaining(['name', 'user', 'egg', 'docker_image', 'limits', 'feature_limits', 'deploy']),
    );
    expect(body?.required).toEqual(expect.arrayContaining(['name', 'user', 'egg', 'limits']));
    for (const [path, method, fields] of [
      ['/api/client/account/api-keys', 'post', ['description', 'allowed_ips']],
      ['/api/client/account/email', 'put', ['email']],
      ['/api/client/servers/{server}/power', 'post', ['signal']],
      ['/api/application/users', 'post', ['email', 'username', 'first_name', 'last_name', 'password']],
      ['/api/application/nodes/{id}', 'patch', ['name', 'location_id', 'fqdn', 'memory', 'daemon_listen']],
      ['/api/application/nodes/{node}/allocations', 'post', ['ip', 'alias', 'ports']],
      [
        '/api/application/servers/{id}/transfer',
        'post',
        ['node_id', 'allocation_id', 'allocation_additional'],
      ],
    ] as const) {
      const schema = document.paths[path]?.[method]?.requestBody?.content['application/json'].schema;
      expect(Object.keys(schema?.properties ?? {}), `${method} ${path}`).toEqual(
        expect.arrayContaining([...fields]),
      );
    }
    expect(document.paths['/api/client/servers/{server}/files/contents']?.get?.parameters).toContainEqual(
      expect.objectContaining({ name: 'file', in: 'query', required: true }),
    );
  });

  it('shows the same routes as a page with no script', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<code>/api/application/servers/{id}/build</code>');
    expect(response.body).not.toContain('<script');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
  });
});
