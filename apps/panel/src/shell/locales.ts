import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { notFound } from '@aerie/panel/http/errors';
import type { FastifyInstance } from 'fastify';

const LANGUAGE = /^[a-z]{2}(-[A-Za-z]{2,4})?$/;
const NAMESPACE = /^[a-z0-9-]+$/;
/** At most this many languages, and as many namespaces, in one locale.json request. */
const MAX_NAMES = 32;

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

/** `en pt-BR` (a `+` in the query is a space) as names that all match `pattern`, or null. */
function nameList(value: unknown, pattern: RegExp): string[] | null {
  if (typeof value !== 'string') return null;
  const names = [...new Set(value.split(/[ +]/).filter(Boolean))];
  return names.length > 0 && names.length <= MAX_NAMES && names.every((name) => pattern.test(name))
    ? names
    : null;
}

/**
 * GET /locales/{lng}/{ns}.json, and GET /locales/locale.json?locale={lngs}&namespace={nss}, the form Pterodactyl's
 * own client asks for (i18next-multiload-backend-adapter: names joined by `+` or spaces, the answer nested as
 * `{lng: {ns: strings}}`, `{}` for a well-named pair with no file, as Pterodactyl answers a missing file).
 * Both read only pairs on the allow-list, so no query can name another file (the hole of CVE-2025-49132);
 * a malformed request is a 404 envelope.
 */
export async function localeRoutes(app: FastifyInstance, { webDist }: { webDist: string }) {
  const allowed = localeAllowList(webDist);
  const read = async (lng: string, ns: string): Promise<unknown> =>
    allowed.has(`${lng}/${ns}`)
      ? JSON.parse(await readFile(join(webDist, 'locales', lng, `${ns}.json`), 'utf8'))
      : {};

  app.get<{ Querystring: Record<string, unknown> }>('/locales/locale.json', async (request, reply) => {
    const languages = nameList(request.query.locale, LANGUAGE);
    const namespaces = nameList(request.query.namespace, NAMESPACE);
    if (!languages || !namespaces) throw notFound();
    const answer: Record<string, Record<string, unknown>> = {};
    for (const lng of languages) {
      answer[lng] = {};
      for (const ns of namespaces) answer[lng][ns] = await read(lng, ns);
    }
    const body = JSON.stringify(answer);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    // Revalidated each time, like the files: the same URL answers new strings after a rebuild.
    reply.header('cache-control', 'public, max-age=0').header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get<{ Params: { lng: string; file: string } }>('/locales/:lng/:file', (request, reply) => {
    const { lng, file } = request.params;
    const ns = file.endsWith('.json') ? file.slice(0, -'.json'.length) : '';
    if (!allowed.has(`${lng}/${ns}`)) throw notFound();
    // Revalidated each time (ETag): translations change with each build but their URLs do not.
    return reply.sendFile(`locales/${lng}/${ns}.json`, webDist, { maxAge: 0, cacheControl: true });
  });
}
