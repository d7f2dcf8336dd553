import { escapeHtml } from '@aerie/panel/http/escape-html';
import { scriptNonce } from '@aerie/panel/http/security-headers';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './openapi-document';
import type { CatalogedRoute } from './route-catalogue';

/**
 * `/api/docs/openapi.json` (the OpenAPI 3.1 document) and `/api/docs` (the same as a readable page, no script and
 * nothing loaded from elsewhere). Public, like Pterodactyl's own API reference.
 */
export async function docsRoutes(
  app: FastifyInstance,
  { routes, title, version }: { routes: readonly CatalogedRoute[]; title: string; version: string },
) {
  let document: ReturnType<typeof openApiDocument> | null = null;
  const built = () => {
    document ??= openApiDocument(routes, { title, version });
    return document;
  };

  app.get('/openapi.json', async () => built());

  app.get('', async (_request, reply) => {
    const nonce = scriptNonce();
    const rows = Object.entries(built().paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => {
        const op = operation as { summary: string; tags: string[]; requestBody?: unknown } & Record<
          string,
          unknown
        >;
        const access = op['x-aerie-key-resource']
          ? `key: ${op['x-aerie-key-resource']} (${op['x-aerie-key-access']})`
          : op['x-aerie-permission']
            ? `permission: ${op['x-aerie-permission']}`
            : '';
        const body = op.requestBody
          ? `<details><summary>body</summary><pre>${escapeHtml(JSON.stringify((op.requestBody as { content: { 'application/json': { schema: unknown } } }).content['application/json'].schema, null, 2))}</pre></details>`
          : '';
        return `<tr><td>${escapeHtml(op.tags[0] ?? '')}</td><td class="m">${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code>${body}</td><td>${escapeHtml(op.summary)}</td><td>${escapeHtml(access)}</td></tr>`;
      }),
    );
    return reply
      .type('text/html; charset=utf-8')
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
      )
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} API</title>
<style nonce="${nonce}">body{font:14px system-ui,sans-serif;margin:2rem;color:#1f2933}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e4e7eb;padding:.35rem .5rem;text-align:left;vertical-align:top}.m{font-weight:600;font-family:monospace}pre{background:#f5f7fa;padding:.5rem;overflow:auto}</style>
</head><body><h1>${escapeHtml(title)} API</h1><p>${rows.length} routes. Machine-readable: <a href="/api/docs/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<table><thead><tr><th>Group</th><th>Method</th><th>Path</th><th>Summary</th><th>Needs</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></body></html>`);
  });
}
