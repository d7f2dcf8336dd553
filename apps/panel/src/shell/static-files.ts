import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The web build's files: /assets/* are content-hashed (cached for a year), other top-level files (favicon,
 * robots.txt…) are served by name with a short cache. index.html is only ever sent through the shell.
 */
export async function staticFiles(app: FastifyInstance, { webDist }: { webDist: string }) {
  const assets = join(webDist, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      index: false,
      immutable: true,
      maxAge: '365d',
      // Dotfiles and directory listings are never part of a build.
      dotfiles: 'deny',
    });
  } else {
    await app.register(fastifyStatic, { root: webDist, serve: false });
  }

  const topLevel = readdirSync(webDist, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'index.html' && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
  for (const name of topLevel) {
    app.get(`/${name}`, (_request, reply) =>
      reply.sendFile(name, webDist, { maxAge: '1h', immutable: false, dotfiles: 'deny' }),
    );
  }
}
