import type { Locale } from 'date-fns';

/**
 * The language dates, numbers, sizes and cron descriptions are written in: the page's, set before each switch by
 * prepareFormatLanguage (i18n's languageChanged keeps it in step). English stays the spec's own formats; another
 * language's date-fns and cronstrue locale is a chunk of its own, loaded only by pages in that language.
 */
let current = 'en';
let dateLocale: Locale | undefined;

const dateLocales: Record<string, () => Promise<Locale>> = {
  de: () => import('date-fns/locale/de').then((module) => module.de),
  fr: () => import('date-fns/locale/fr').then((module) => module.fr),
  es: () => import('date-fns/locale/es').then((module) => module.es),
  pt: () => import('date-fns/locale/pt-BR').then((module) => module.ptBR),
  pl: () => import('date-fns/locale/pl').then((module) => module.pl),
  ru: () => import('date-fns/locale/ru').then((module) => module.ru),
  zh: () => import('date-fns/locale/zh-CN').then((module) => module.zhCN),
  ar: () => import('date-fns/locale/ar').then((module) => module.ar),
};

/** cronstrue's locale files register themselves with cronstrue when imported; its name for each language. */
const cronLocales: Record<string, { name: string; load: () => Promise<unknown> }> = {
  de: { name: 'de', load: () => import('cronstrue/locales/de') },
  fr: { name: 'fr', load: () => import('cronstrue/locales/fr') },
  es: { name: 'es', load: () => import('cronstrue/locales/es') },
  pt: { name: 'pt_BR', load: () => import('cronstrue/locales/pt_BR') },
  pl: { name: 'pl', load: () => import('cronstrue/locales/pl') },
  ru: { name: 'ru', load: () => import('cronstrue/locales/ru') },
  zh: { name: 'zh_CN', load: () => import('cronstrue/locales/zh_CN') },
  ar: { name: 'ar', load: () => import('cronstrue/locales/ar') },
};

/** The language last asked for, and its load: a second ask waits on the same load, a stale load changes nothing. */
let wanted = 'en';
let loading: Promise<void> = Promise.resolve();

/** Loads what formatting in `language` needs; resolves once it is used (a failed load keeps English formats). */
export function prepareFormatLanguage(language: string): Promise<void> {
  if (language === wanted) return loading;
  wanted = language;
  loading = Promise.all([
    dateLocales[language]?.().catch(() => undefined),
    cronLocales[language]?.load().catch(() => undefined),
  ]).then(([loadedDates]) => {
    // Another language was asked for meanwhile: its own load decides.
    if (wanted !== language) return;
    dateLocale = loadedDates;
    current = loadedDates || language === 'en' ? language : 'en';
    // A failed load is tried again at the next ask.
    wanted = current;
  });
  return loading;
}

/** Follows a language change made without prepareFormatLanguage: the previous formats until its locale is there. */
export function followFormatLanguage(language: string): void {
  void prepareFormatLanguage(language);
}

export const formatLanguage = (): string => current;
export const formatDateLocale = (): Locale | undefined => dateLocale;
export const cronLocale = (): string => cronLocales[current]?.name ?? 'en';
