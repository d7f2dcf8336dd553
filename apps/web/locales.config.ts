import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LocalesInfo {
  /** Languages that have translation files; i18next never asks the panel for any other. */
  languages: string[];
  /** Hash of every translation file: a new build invalidates the copies browsers keep in local storage. */
  version: string;
}

const localesDir = fileURLToPath(new URL('./public/locales', import.meta.url));

/** Reads public/locales at build time so the bundle knows which languages exist and which version they are. */
export function readLocalesInfo(): LocalesInfo {
  const hash = createHash('sha256');
  const languages = readdirSync(localesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const language of languages) {
    for (const file of readdirSync(join(localesDir, language)).sort()) {
      hash.update(`${language}/${file}\n`);
      hash.update(readFileSync(join(localesDir, language, file)));
    }
  }
  return { languages, version: hash.digest('hex').slice(0, 12) };
}

/** The `define` entry both the Vite build and the test runner use. */
export const localesDefine = () => ({ __AERIE_LOCALES__: JSON.stringify(readLocalesInfo()) });
