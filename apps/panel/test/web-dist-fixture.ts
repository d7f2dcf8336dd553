import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** The hashed asset's content; the build also writes its brotli (.br) and gzip (.gz) copies beside it. */
export const FIXTURE_ASSET = { path: '/assets/index-Abc123.js', body: 'console.log("aerie");\n' };

/**
 * A tiny stand-in for the Vite build (index.html, a hashed asset with its precompressed copies, a favicon and a
 * few translation files), so panel tests never depend on the web app being built.
 */
export function createWebDistFixture(dir: string): string {
  const dist = join(dir, 'web-dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(
    join(dist, 'index.html'),
    [
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="UTF-8" />',
      '<title>Vite App</title>',
      '<script type="module" crossorigin src="/assets/index-Abc123.js"></script>',
      '</head>',
      '<body><div id="app"></div></body>',
      '</html>',
    ].join('\n'),
  );
  writeFileSync(join(dist, 'assets/index-Abc123.js'), FIXTURE_ASSET.body);
  writeFileSync(join(dist, 'assets/index-Abc123.js.br'), brotliCompressSync(FIXTURE_ASSET.body));
  writeFileSync(join(dist, 'assets/index-Abc123.js.gz'), gzipSync(FIXTURE_ASSET.body));
  writeFileSync(join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  for (const [lng, ns, body] of [
    ['en', 'translation', { hello: 'Hello' }],
    ['en', 'auth', { login: 'Login to Continue' }],
    ['pt-BR', 'auth', { login: 'Entrar' }],
  ] as const) {
    mkdirSync(join(dist, 'locales', lng), { recursive: true });
    writeFileSync(join(dist, 'locales', lng, `${ns}.json`), JSON.stringify(body));
  }
  // Files that must never be served: a badly named language and namespace, and a non-JSON file.
  mkdirSync(join(dist, 'locales', 'EN_bad'), { recursive: true });
  writeFileSync(join(dist, 'locales', 'EN_bad', 'auth.json'), '{}');
  writeFileSync(join(dist, 'locales', 'en', 'Bad_NS.json'), '{}');
  writeFileSync(join(dist, 'locales', 'en', 'notes.txt'), 'secret');
  return dist;
}
