import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts of the build are compressed formats already. */
const COMPRESSIBLE = /\.(js|mjs|css|json|svg|txt|xml|map|wasm)$/;

/** Every file under `dir`, as paths relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible file of `dir`,
 * keeping a copy only when it is smaller than the file. index.html is left out: the panel renders it per request.
 * @returns the files compressed and their total sizes (raw, brotli, gzip; a file without a copy counts as raw)
 */
export async function precompressDirectory(dir: string) {
  const files = (await listFiles(dir)).filter(
    (file) => COMPRESSIBLE.test(file) && resolve(file) !== resolve(dir, 'index.html'),
  );
  const totals = { files: files.length, raw: 0, br: 0, gzip: 0 };
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        }),
        gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      totals.raw += body.length;
      totals.br += Math.min(br.length, body.length);
      totals.gzip += Math.min(gz.length, body.length);
      await Promise.all([
        br.length < body.length ? writeFile(`${file}.br`, br) : undefined,
        gz.length < body.length ? writeFile(`${file}.gz`, gz) : undefined,
      ]);
    }),
  );
  return totals;
}

/**
 * Compressed delivery, made once at build time: after `vite build` has written its output (public/ included), every
 * asset gets its .br and .gz copies, which the panel sends to browsers that ask for them (@fastify/static's
 * preCompressed). Nothing is compressed per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'aerie:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
      const totals = await precompressDirectory(outDir);
      this.info(
        `precompressed ${totals.files} files: ${kib(totals.raw)} raw, ${kib(totals.br)} brotli, ${kib(totals.gzip)} gzip`,
      );
    },
  };
}
