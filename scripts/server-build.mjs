// The panel and the daemon compiled to JavaScript: one esbuild bundle of `aerie`'s entry (apps/panel/src/cli/main.ts,
// which loads the daemon for `aerie daemon`), split into chunks so each command loads only its own code, in the
// gitignored dist/server/. npm packages stay external (node_modules, native modules included); the workspace's own
// TypeScript (@aerie/*) is bundled, and so is a package a workspace holds its own version of. bin/aerie.mjs runs it
// when it is newer than every source file, else the TypeScript through tsx (tests and development after an edit).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildHolderProgram } from '../apps/daemon/src/runtime/process/holder/build-holder.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const serverDist = join(root, 'dist/server');
export const serverEntry = join(serverDist, 'main.js');
/** Written last by a build that succeeded: its mtime is the build's. */
const stamp = join(serverDist, 'built');
const sources = ['apps/panel/src', 'apps/daemon/src', 'packages/shared/src', 'scripts/server-build.mjs'];

function newestIn(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs; // a file deleted or renamed changes its directory
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    newest = Math.max(newest, newestIn(join(path, entry.name)));
  }
  return newest;
}

/** The newest modification time among the server's sources (a few ms: ~700 stats). */
export const newestServerSource = () => Math.max(...sources.map((p) => newestIn(join(root, p))));

/** Whether dist/server is there and newer than every source file. */
export function serverBuildIsFresh() {
  return existsSync(stamp) && statSync(stamp).mtimeMs >= newestServerSource();
}

/**
 * Each module's `import.meta.url` becomes its source file's URL, relative to the bundle: the paths modules
 * resolve against it (the repository root, eggs/, package.json, the holder's source) stay what they are in source.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromDist = relative(serverDist, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

const rootModules = join(root, 'node_modules');

/** The node_modules folder Node finds package `name` in, looking up from `dir` as it does; undefined for none. */
function packageHome(name, dir) {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name))) return join(at, 'node_modules');
    if (dirname(at) === at) return undefined;
  }
}

/** `tar-stream/pack` → `tar-stream`, `@scope/name/x` → `@scope/name`. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Whether an import stays an import in dist/server: npm packages (and node: built-ins) are imported at run time;
 * the workspace's @aerie/* is bundled. So is a package a workspace keeps its own copy of
 * (apps/daemon/node_modules/tar-stream 3 beside the root's tar-stream 2 of dockerode): from dist/server, Node would
 * find the root's copy, another version than the source runs with.
 */
export function staysExternal(specifier, resolveDir) {
  if (specifier.startsWith('@aerie/')) return false;
  if (specifier.startsWith('node:')) return true;
  const home = packageHome(packageName(specifier), resolveDir);
  return home === undefined || home === rootModules;
}

const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      staysExternal(args.path, args.resolveDir) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Builds dist/server (about a second). */
export async function buildServer() {
  const { build } = await import('esbuild');
  const { rmSync, writeFileSync } = await import('node:fs');
  rmSync(serverDist, { recursive: true, force: true });
  // The compiled server carries the holder program, so a daemon starting its first server neither loads esbuild nor
  // starts its service process.
  const holder = await buildHolderProgram(
    join(root, 'apps/daemon/src/runtime/process/holder/holder-main.ts'),
  );
  await build({
    entryPoints: { main: join(root, 'apps/panel/src/cli/main.ts') },
    outdir: serverDist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // The sources are in the repository: maps without them are a fraction of the size (Node reads them at load).
    sourcesContent: false,
    // Class and function names as in source: the CLI tells expected errors apart by `error.name`.
    keepNames: true,
    // Every output beside main.js: the URLs of keep-module-urls are relative to that one directory.
    chunkNames: '[name]-[hash]',
    tsconfig: join(root, 'apps/panel/tsconfig.json'),
    plugins: [externalPackages, keepModuleUrls],
    define: { AERIE_HOLDER_PROGRAM: JSON.stringify(holder) },
    // A bundled CommonJS package (see externalPackages) requires its external dependencies at run time.
    banner: {
      js: [
        "import { createRequire as __aerieCreateRequire } from 'node:module';",
        'const require = __aerieCreateRequire(import.meta.url);',
      ].join(' '),
    },
    logLevel: 'warning',
  });
  writeFileSync(join(serverDist, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  await buildServer();
  console.log(`Built ${relative(process.cwd(), serverDist) || '.'} in ${Date.now() - started} ms.`);
}
