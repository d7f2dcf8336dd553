// Plain JavaScript, so scripts/server-build.mjs (run by bare node) and holder-program.ts build the holder the same way.

/**
 * The holder as one plain script: `entry` (holder-main.ts) and the few modules it imports, bundled and minified by
 * esbuild. The compiled server carries it (scripts/server-build.mjs); a daemon run as TypeScript builds it at its
 * first server start (holder-program.ts).
 * @param {string} entry the path of holder-main.ts
 * @returns {Promise<string>}
 */
export async function buildHolderProgram(entry) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('The holder program could not be built.');
  return output.text;
}
