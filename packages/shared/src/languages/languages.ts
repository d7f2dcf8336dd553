/**
 * The languages the panel ships: one folder each under apps/web/public/locales (a test keeps the two equal). Adding
 * a language is its folder and one line here (README, "Translating Aerie"). Codes are i18next's language-only codes:
 * `pt` is Brazilian Portuguese and `zh` Simplified Chinese, as CLDR reads them.
 */
export const languages = ['en', 'de', 'fr', 'es', 'pt', 'pl', 'ru', 'zh', 'ar'] as const;
export type Language = (typeof languages)[number];

/** Each language's name in itself, as a language picker shows it (never translated). */
export const languageNames: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  pt: 'Português (Brasil)',
  pl: 'Polski',
  ru: 'Русский',
  zh: '简体中文',
  ar: 'العربية',
};

const rightToLeft: ReadonlySet<string> = new Set<Language>(['ar']);

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/** The page's writing direction for a language. */
export const directionOf = (language: string): 'ltr' | 'rtl' =>
  rightToLeft.has(language.toLowerCase().split('-')[0] ?? '') ? 'rtl' : 'ltr';

/**
 * The first shipped language of a browser's preference list (`navigator.languages`, or an Accept-Language header's
 * tags in order): `de-AT` picks `de`, `pt-PT` picks `pt`, `zh-TW` picks `zh`.
 */
export function preferredLanguage(tags: readonly string[]): Language | undefined {
  for (const tag of tags) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(base)) return base;
  }
  return undefined;
}
