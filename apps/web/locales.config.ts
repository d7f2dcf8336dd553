import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

export interface LocalesInfo {
  /** Languages that have translation files; i18next never asks the panel for any other. */
  languages: string[];
  /** Hash of every translation file: a new build invalidates the copies browsers keep in local storage. */
  version: string;
}

// import.meta.dirname rather than a file URL: the web tests load this module in jsdom too.
const localesDir = join(import.meta.dirname, 'public/locales');

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

type Tree = { [key: string]: string | Tree };

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * English with a translation laid over it: a key the translation lacks keeps its English text. The plural forms
 * English has no key for (Polish `_few` and `_many`, Arabic `_zero`…) are kept where English has that plural.
 */
export function overEnglish(english: Tree, translated: Tree): Tree {
  const merged: Tree = {};
  for (const [key, value] of Object.entries(english)) {
    const theirs = translated[key];
    if (typeof value === 'string') merged[key] = typeof theirs === 'string' && theirs !== '' ? theirs : value;
    else merged[key] = overEnglish(value, typeof theirs === 'object' ? theirs : {});
  }
  for (const [key, theirs] of Object.entries(translated)) {
    const base = key.replace(PLURAL_SUFFIX, '');
    const plural =
      base !== key &&
      (typeof english[`${base}_one`] === 'string' || typeof english[`${base}_other`] === 'string');
    if (plural && !(key in merged) && typeof theirs === 'string' && theirs !== '') merged[key] = theirs;
  }
  return merged;
}

const readTree = (language: string, file: string): Tree =>
  JSON.parse(readFileSync(join(localesDir, language, file), 'utf8')) as Tree;

/**
 * The built translation files of every language but English are English with the translation laid over it, so a
 * page falls back per key to English while loading one language only (i18next would otherwise load English beside
 * it for its fallback). Runs before the compression of the output.
 */
export function mergedLocales(): Plugin {
  let outDir = 'dist';
  return {
    name: 'aerie:merged-locales',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    writeBundle() {
      // English read once; each language's folder listed once.
      const english = readdirSync(join(localesDir, 'en'))
        .filter((name) => name.endsWith('.json'))
        .map((file) => ({ file, tree: readTree('en', file) }));
      const { languages } = readLocalesInfo();
      for (const language of languages.filter((code) => code !== 'en')) {
        mkdirSync(join(outDir, 'locales', language), { recursive: true });
        const present = new Set(readdirSync(join(localesDir, language)));
        for (const { file, tree } of english) {
          const translated = present.has(file) ? readTree(language, file) : {};
          writeFileSync(
            join(outDir, 'locales', language, file),
            JSON.stringify(overEnglish(tree, translated)),
          );
        }
      }
    },
  };
}
