import { languages } from '@aerie/shared/languages/languages';
import { describe, expect, it } from 'vitest';
import { checkLocale, type LocaleFile, type LocaleFiles } from '@/lib/locale-check';

const files = import.meta.glob<LocaleFile>('../../public/locales/*/*.json', {
  eager: true,
  import: 'default',
});

function languageFiles(language: string): LocaleFiles {
  const found: LocaleFiles = {};
  for (const [path, file] of Object.entries(files)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (match?.[1] === language && match[2]) found[match[2]] = file;
  }
  return found;
}

const english = languageFiles('en');
const copy = <T>(value: T): T => structuredClone(value);

describe('the shipped languages', () => {
  it('are the folders under public/locales, each with every namespace English has', () => {
    const folders = [
      ...new Set(Object.keys(files).map((path) => /\/locales\/([^/]+)\//.exec(path)?.[1])),
    ].sort();
    expect(folders).toEqual([...languages].sort());
  });

  it.each(languages.filter((language) => language !== 'en'))(
    '%s has every key of English, and only those, with the same placeholders and its own plural forms',
    (language) => {
      expect(checkLocale(language, english, languageFiles(language))).toEqual([]);
    },
  );
});

describe('checkLocale', () => {
  const base: LocaleFiles = {
    server: {
      title: 'Servers of {{name}}',
      list: { count_one: 'One server', count_other: '{{count}} servers' },
      link: 'Read <code>{{path}}</code>',
    },
  };

  it('fails on a removed key, an extra key and a missing file', () => {
    const german = copy(base);
    delete (german.server as { title?: string }).title;
    (german.server as Record<string, string>).extra = 'Zusatz';
    (german.server as { list: Record<string, string> }).list = {
      count_one: 'Ein Server',
      count_other: '{{count}} Server',
    };
    expect(checkLocale('de', { ...base, auth: { title: 'Sign in' } }, german)).toEqual([
      'de/server.json: missing key title',
      'de/server.json: extra key extra (not in English, or not a plural form of de)',
      'de/auth.json: missing file',
    ]);
  });

  it("asks for the language's own plural forms: Polish one, few, many, other; Chinese other only", () => {
    const polish = copy(base);
    (polish.server as { list: Record<string, string> }).list = {
      count_one: 'Jeden serwer',
      count_other: '{{count}} serwera',
    };
    expect(checkLocale('pl', base, polish)).toEqual([
      'pl/server.json: missing key list.count_few',
      'pl/server.json: missing key list.count_many',
    ]);
    const chinese = copy(base);
    (chinese.server as { list: Record<string, string> }).list = {
      count_one: '一台',
      count_other: '{{count}} 台服务器',
    };
    expect(checkLocale('zh', base, chinese)).toEqual([
      'zh/server.json: extra key list.count_one (not in English, or not a plural form of zh)',
    ]);
  });

  it('fails on a placeholder or tag lost or added, and on an empty text', () => {
    const french = copy(base);
    (french.server as Record<string, string>).title = 'Serveurs de {{nom}}';
    (french.server as Record<string, string>).link = 'Lire {{path}}';
    (french.server as { list: Record<string, string> }).list = {
      count_one: '',
      count_many: '{{count}} serveurs',
      count_other: 'serveurs',
    };
    expect(checkLocale('fr', base, french)).toEqual([
      'fr/server.json: title lacks {{name}}',
      'fr/server.json: title has {{nom}}, which English does not',
      'fr/server.json: empty text for list.count_one',
      'fr/server.json: list.count_other lacks {{count}}',
      'fr/server.json: link lacks </code> <code>',
    ]);
  });
});
