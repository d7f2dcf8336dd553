import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { notFound } from '@aerie/panel/http/errors';
import type { FastifyInstance } from 'fastify';

const LANGUAGE = /^[a-z]{2}(-[A-Za-z]{2,4})?$/;
const NAMESPACE = /^[a-z0-9-]+$/;

/** Every `<lng>/<ns>` pair present in `<webDist>/locales` at boot, with well-formed names only. */
export function localeAllowList(webDist: string): Set<string> {
  const root = join(webDist, 'locales');
  const allowed = new Set<string>();
  if (!existsSync(root)) return allowed;
  for (const lng of readdirSync(root, { withFileTypes: true })) {
    if (!lng.isDirectory() || !LANGUAGE.test(lng.name)) continue;
    for (const file of readdirSync(join(root, lng.name), { withFileTypes: true })) {
      const ns = file.name.replace(/\.json$/, '');
      if (file.isFile() && file.name.endsWith('.json') && NAMESPACE.test(ns))
        allowed.add(`${lng.name}/${ns}`);
    }
  }
  return allowed;
}

/**
 * GET /locales/{lng}/{ns}.json. Only pairs on the allow-list are served, so the URL can never name another
 * file; everything else is a 404 envelope.
 */
export async function localeRoutes(app: FastifyInstance, { webDist }: { webDist: string }) {
  const allowed = localeAllowList(webDist);
  app.get<{ Params: { lng: string; file: string } }>('/locales/:lng/:file', (request, reply) => {
    const { lng, file } = request.params;
    const ns = file.endsWith('.json') ? file.slice(0, -'.json'.length) : '';
    if (!allowed.has(`${lng}/${ns}`)) throw notFound();
    // Revalidated each time (ETag): translations change with each build but their URLs do not.
    return reply.sendFile(`locales/${lng}/${ns}.json`, webDist, { maxAge: 0, cacheControl: true });
  });
}
