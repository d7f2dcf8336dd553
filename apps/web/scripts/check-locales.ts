/**
 * `npm run check:locales -w @aerie/web [-- de]`: what a translator runs before sending a language. Prints every
 * missing or extra key and every placeholder that differs from English; exits 1 when there is one. The web tests run
 * the same check over every language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLocale, type LocaleFiles } from '../src/lib/locale-check';

const localesDir = fileURLToPath(new URL('../public/locales', import.meta.url));

function readLanguage(language: string): LocaleFiles {
  const files: LocaleFiles = {};
  for (const file of readdirSync(join(localesDir, language)).filter((name) => name.endsWith('.json'))) {
    files[file.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(localesDir, language, file), 'utf8'));
  }
  return files;
}

const wanted = process.argv.slice(2);
const languages = readdirSync(localesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'en')
  .map((entry) => entry.name)
  .filter((language) => wanted.length === 0 || wanted.includes(language));
const english = readLanguage('en');
let problems = 0;
for (const language of languages) {
  const found = checkLocale(language, english, readLanguage(language));
  problems += found.length;
  for (const line of found) console.log(line);
  console.log(`${language}: ${found.length === 0 ? 'complete' : `${found.length} problem(s)`}`);
}
process.exit(problems === 0 ? 0 : 1);
