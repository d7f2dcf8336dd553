import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EggDefinition } from '@aerie/panel/features/eggs/ptdl/egg-definition';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';

/** The repository's `eggs/` folder: the eggs `aerie up` imports on a fresh install. */
export const bundledEggsDir = fileURLToPath(new URL('../../../../../eggs/', import.meta.url));

/** The demo game server's egg, imported by the embedded default so a new panel has something to run. */
export const demoEggPath = join(bundledEggsDir, 'aerie-demo.json');

export interface BundledEgg {
  file: string;
  egg: EggDefinition;
}

/** Every `eggs/*.json`, parsed; a broken bundled egg fails loudly with its file name. */
export function loadBundledEggs(dir = bundledEggsDir): BundledEgg[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      try {
        return { file, egg: parseEggExportText(readFileSync(file, 'utf8')) };
      } catch (error) {
        throw new Error(`Bundled egg ${name}: ${(error as Error).message}`, { cause: error });
      }
    });
}
