import { z } from 'zod';
import type { CatalogedRoute } from './route-catalogue';

/**
 * The OpenAPI 3.1 document of the client and application APIs, built from the registered routes: each route's
 * path, method, required key resource or permission, and its body schema converted from the very zod schema the
 * handler validates with (input side: numeric strings and such are what the schema accepts before parsing).
 */
export function openApiDocument(routes: readonly CatalogedRoute[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const path = route.url.replace(/\/+$/, '').replace(/:([A-Za-z_]+)/g, '{$1}') || '/';
    const application = path.startsWith('/api/application');
    const parameters: Record<string, unknown>[] = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (route.config.query) parameters.push(...queryParameters(route.config.query));
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: route.config.summary ?? `${route.method} ${path}`,
      tags: [tagOf(path)],
      security: application
        ? [{ applicationKey: [] }, { session: [] }]
        : [{ clientKey: [] }, { session: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        '2XX': {
          description:
            'Success: an item `{object, attributes}`, a list `{object: "list", data, meta}`, or 204.',
        },
        default: {
          description: 'Failure',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } },
        },
      },
    };
    if (application && route.config.adminResource) {
      operation['x-aerie-key-resource'] = route.config.adminResource;
      operation['x-aerie-key-access'] = route.method === 'GET' ? 'read' : 'write';
    }
    if (route.config.permission) operation['x-aerie-permission'] = route.config.permission;
    if (route.config.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: bodySchema(route.config.body) } },
      };
    }
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'Pterodactyl-compatible client (`/api/client`) and application (`/api/application`) APIs. Errors use the envelope `{errors: [{code, status, detail}]}`; 422 entries carry `meta.source_field` and `meta.rule`.',
    },
    components: {
      securitySchemes: {
        applicationKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An application key `ptla_…` (or a root admin’s `ptlc_…`).',
        },
        clientKey: { type: 'http', scheme: 'bearer', description: 'An account API key `ptlc_…`.' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'aerie_session',
          description: 'The SPA’s session, with `X-CSRF-Token` on writes.',
        },
      },
      schemas: {
        Errors: {
          type: 'object',
          properties: {
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  code: { type: 'string' },
                  status: { type: 'string' },
                  detail: { type: 'string' },
                  meta: {
                    type: 'object',
                    properties: { source_field: { type: 'string' }, rule: { type: 'string' } },
                  },
                },
                required: ['code', 'status', 'detail'],
              },
            },
          },
          required: ['errors'],
        },
      },
    },
    paths,
  };
}

function bodySchema(schema: z.ZodType) {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return json;
}

/** The query parameters of an object schema: one per key, required as the schema's input requires it. */
function queryParameters(schema: z.ZodType) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

/** `/api/application/nodes/{id}/allocations` → `application: nodes`. */
function tagOf(path: string): string {
  const [, , surface = '', first = '', second = '', third = ''] = path.split('/');
  if (surface === 'client' && first === 'servers' && third) return 'client: server';
  if (surface === 'client') return `client: ${first || 'servers'}`;
  return `application: ${first === 'nodes' && third === 'allocations' ? 'allocations' : first}${second === 'eggs' ? '' : ''}`;
}
