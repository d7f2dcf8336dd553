/**
 * What keeps every language complete (README, "Translating Aerie"): each language has every namespace and every key
 * of English, no key English lacks, the plural forms its own rules use (Intl.PluralRules, as i18next picks them), and
 * the same `{{placeholders}}`, `$t(nesting)` and `<tags>` as the English text. Pure: the test and the translators'
 * script hand it the parsed files.
 */

/** A namespace's file as parsed JSON: nested objects of strings. */
export type LocaleFile = { [key: string]: string | LocaleFile };
/** Every namespace's file of one language. */
export type LocaleFiles = Record<string, LocaleFile>;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** `a.b.c` → text, for every string in the file. */
export function flattenLocale(file: LocaleFile, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(file)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flattenLocale(value, path)) flat.set(inner, text);
  }
  return flat;
}

/** The markers a translation must keep: placeholders (without their format), nestings and tags. */
export function markersOf(text: string): string[] {
  const markers = [
    ...[...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((match) => `{{${match[1]}}}`),
    ...[...text.matchAll(/\$t\(([^)]*)\)/g)].map((match) => `$t(${match[1]})`),
    ...[...text.matchAll(/<\/?([0-9A-Za-z]+)\s*\/?>/g)].map((match) => match[0].replace(/\s+/g, '')),
  ];
  return [...new Set(markers)].sort();
}

/** The plural categories a language's rules use, in i18next's suffix order. */
export function pluralCategories(language: string): string[] {
  const used = new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
  return ['zero', 'one', 'two', 'few', 'many', 'other'].filter((category) => used.includes(category));
}

/** Plural forms may leave the count out where the form names exactly one number ("one server", "zwei Server"). */
const MAY_DROP_COUNT = new Set(['zero', 'one', 'two']);

/**
 * Every problem of `language` against English, one line each (`de/server.json: missing key files.title`); empty when
 * the language is complete.
 */
export function checkLocale(language: string, english: LocaleFiles, translated: LocaleFiles): string[] {
  const problems: string[] = [];
  const categories = pluralCategories(language);
  for (const namespace of Object.keys(translated)) {
    if (!(namespace in english)) problems.push(`${language}/${namespace}.json: no such namespace in English`);
  }
  for (const [namespace, file] of Object.entries(english)) {
    const where = `${language}/${namespace}.json`;
    const theirs = translated[namespace];
    if (!theirs) {
      problems.push(`${where}: missing file`);
      continue;
    }
    const ours = flattenLocale(file);
    const their = flattenLocale(theirs);
    const expected = new Map<string, { required: string[]; allowed: string[] }>();
    const exact = (text: string) => ({ required: markersOf(text), allowed: markersOf(text) });
    for (const [key, text] of ours) {
      const plural = PLURAL_SUFFIX.exec(key);
      if (!plural) {
        expected.set(key, exact(text));
        continue;
      }
      const base = key.replace(PLURAL_SUFFIX, '');
      const one = ours.get(`${base}_one`);
      const other = ours.get(`${base}_other`);
      // English's `_one` and `_other` stand for every form of the target language; any other suffix is kept as is.
      if (plural[1] === 'one' || (plural[1] === 'other' && one === undefined)) {
        const otherMarkers = markersOf(other ?? text);
        const oneMarkers = markersOf(one ?? other ?? text);
        const allowed = [...new Set([...otherMarkers, ...oneMarkers])];
        for (const category of categories) {
          // A form for exactly one number may name it in words, or name the one item as English's `_one` does.
          const required = MAY_DROP_COUNT.has(category)
            ? otherMarkers.filter((marker) => marker !== '{{count}}' && oneMarkers.includes(marker))
            : otherMarkers;
          expected.set(`${base}_${category}`, { required, allowed });
        }
      } else if (plural[1] !== 'other') {
        expected.set(key, exact(text));
      }
    }
    for (const [key, { required, allowed }] of expected) {
      const text = their.get(key);
      if (text === undefined) {
        problems.push(`${where}: missing key ${key}`);
        continue;
      }
      if (text.trim() === '' && (ours.get(key) ?? '-').trim() !== '')
        problems.push(`${where}: empty text for ${key}`);
      const have = markersOf(text);
      const missing = required.filter((marker) => !have.includes(marker));
      const extra = have.filter((marker) => !allowed.includes(marker));
      if (missing.length > 0) problems.push(`${where}: ${key} lacks ${missing.join(' ')}`);
      if (extra.length > 0) problems.push(`${where}: ${key} has ${extra.join(' ')}, which English does not`);
    }
    for (const key of their.keys()) {
      if (!expected.has(key))
        problems.push(`${where}: extra key ${key} (not in English, or not a plural form of ${language})`);
    }
  }
  return problems;
}
