import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './panel-process';

/** Letters drawn with accents: still readable, never an English word. */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ'][index] ?? letter,
  ]),
);

/** Everything a translation must keep as it is: placeholders, nestings and tags. */
const KEPT = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[0-9A-Za-z]+\s*\/?>)/;

/** `Delete {{name}}?` → `⟦Ḓḗŀḗŧḗ {{name}}?⟧`: every text of the app marked, so one left unmarked stands out. */
export function pseudo(text: string): string {
  if (text === '') return text;
  const body = text
    .split(KEPT)
    .map((part, index) => (index % 2 === 1 ? part : [...part].map((char) => ACCENTED[char] ?? char).join('')))
    .join('');
  return `⟦${body}⟧`;
}

type Tree = { [key: string]: string | Tree };
const pseudoTree = (tree: Tree): Tree =>
  Object.fromEntries(
    Object.entries(tree).map(([key, value]) => [
      key,
      typeof value === 'string' ? pseudo(value) : pseudoTree(value),
    ]),
  );

/**
 * A copy of the built web app whose English files are pseudo-translated, for a panel started with WEB_DIST set to
 * it. The precompressed copies of those files are removed, so the panel sends the pseudo ones.
 */
export function pseudoWebDist(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'aerie-pseudo-web-'));
  cpSync(join(repoRoot, 'apps/web/dist'), dir, { recursive: true });
  const english = join(dir, 'locales', 'en');
  for (const file of readdirSync(english)) {
    const path = join(english, file);
    if (file.endsWith('.json')) {
      // messages.json's keys are the English texts themselves: only its values are shown.
      writeFileSync(path, JSON.stringify(pseudoTree(JSON.parse(readFileSync(path, 'utf8')) as Tree)));
    } else rmSync(path);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
