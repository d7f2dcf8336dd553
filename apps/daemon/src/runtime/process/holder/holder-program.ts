import { fileURLToPath } from 'node:url';
import { buildHolderProgram } from './build-holder.mjs';

/** The compiled server's copy of the holder (scripts/server-build.mjs defines it); undefined under TypeScript. */
declare const AERIE_HOLDER_PROGRAM: string | undefined;

let program: Promise<string> | undefined;

/**
 * The holder as one plain script (holder-main.ts and the few modules it imports, bundled). The compiled server
 * carries it, built with the rest; run as TypeScript, the daemon builds it once with esbuild (already here: it is
 * what runs the TypeScript). Kept in memory and passed to `node -e`, so starting a server writes nothing to disk,
 * and a daemon upgraded while games run leaves each holder on the code it started with.
 */
export function holderProgram(): Promise<string> {
  if (typeof AERIE_HOLDER_PROGRAM === 'string') return Promise.resolve(AERIE_HOLDER_PROGRAM);
  program ??= buildHolderProgram(fileURLToPath(new URL('./holder-main.ts', import.meta.url))).catch(
    (error: unknown) => {
      program = undefined;
      throw error;
    },
  );
  return program;
}
