import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The web build's files: /assets/* are content-hashed (cached for a year), other top-level files (favicon,
 * robots.txt…) are served by name with a short cache. index.html is only ever sent through the shell.
 * The build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each file (apps/web/precompress.ts): the copy the
 * request's Accept-Encoding prefers is sent as is (`Vary: Accept-Encoding`), the plain file when there is none.
 * This covers reply.sendFile too (the translation files and the top-level files).
 */
export async function staticFiles(app: FastifyInstance, { webDist }: { webDist: string }) {
  const assets = join(webDist, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      index: false,
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      // Dotfiles and directory listings are never part of a build.
      dotfiles: 'deny',
    });
  } else {
    await app.register(fastifyStatic, { root: webDist, serve: false, preCompressed: true });
  }

  const topLevel = readdirSync(webDist, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'index.html' && !entry.name.startsWith('.'))
    // The compressed copies are sent in place of their file, never by their own name.
    .filter((entry) => !/\.(br|gz)$/.test(entry.name))
    .map((entry) => entry.name);
  for (const name of topLevel) {
    app.get(`/${name}`, (_request, reply) =>
      reply.sendFile(name, webDist, { maxAge: '1h', immutable: false, dotfiles: 'deny' }),
    );
  }
}
