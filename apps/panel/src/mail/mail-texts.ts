import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '@aerie/panel/config/load-config';
import { isLanguage } from '@aerie/shared/languages/languages';

type Tree = { [key: string]: string | Tree };

/** A mail's texts in one language: `text('reset.expiry', { count: 60 })` picks the language's plural form. */
export type MailText = (key: string, values?: Record<string, string | number>) => string;

/**
 * Mail is written in its reader's language, from the `mail` namespace every language folder has
 * (apps/web/public/locales/<lng>/mail.json), read once per language; a key a language lacks is English's.
 */
export class MailTexts {
  readonly #loaded = new Map<string, Promise<Tree>>();

  /** The source folder first (npm start runs from the repository), else `webDist`'s built copies. */
  constructor(
    private readonly webDist: string,
    private readonly sourceDir = join(repoRoot, 'apps/web/public/locales'),
  ) {}

  async for(language: string): Promise<MailText> {
    const english = await this.#tree('en');
    const own = isLanguage(language) && language !== 'en' ? await this.#tree(language) : english;
    const plurals = new Intl.PluralRules(isLanguage(language) ? language : 'en');
    return (key, values = {}) => {
      const count = values.count;
      const keys =
        typeof count === 'number' ? [`${key}_${plurals.select(count)}`, `${key}_other`, key] : [key];
      const template =
        keys.map((candidate) => lookup(own, candidate)).find((text) => text !== undefined) ??
        keys.map((candidate) => lookup(english, candidate)).find((text) => text !== undefined) ??
        key;
      return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
        values[name] === undefined ? whole : String(values[name]),
      );
    };
  }

  #tree(language: string): Promise<Tree> {
    let tree = this.#loaded.get(language);
    if (!tree) {
      tree = readTree([this.sourceDir, join(this.webDist, 'locales')], language);
      this.#loaded.set(language, tree);
    }
    return tree;
  }
}

async function readTree(dirs: string[], language: string): Promise<Tree> {
  for (const dir of dirs) {
    try {
      return JSON.parse(await readFile(join(dir, language, 'mail.json'), 'utf8')) as Tree;
    } catch {
      // Not built, or no such language: the next place, then nothing (English's keys answer).
    }
  }
  return {};
}

function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}
