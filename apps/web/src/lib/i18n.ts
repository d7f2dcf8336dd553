import { directionOf } from '@aerie/shared/languages/languages';
import { limits } from '@aerie/shared/limits';
import i18next, { type i18n } from 'i18next';
import ChainedBackend from 'i18next-chained-backend';
import LocalStorageBackend from 'i18next-localstorage-backend';
import { initReactI18next } from 'react-i18next';
import { BundledBackend, isBundled } from '@/lib/bundled-backend';
import { followFormatLanguage } from '@/lib/format-language';
import { RetryingHttpBackend } from '@/lib/retrying-http-backend';

/**
 * Translation namespaces: one JSON file each under public/locales/<lng>/. Loaded together at start-up. Two more are
 * loaded when first needed: `admin` (the admin area) and `activity` (the activity logs' event descriptions).
 */
/** The local-storage cache, minus the bundled fallback: a copy of the panel's files only. */
class TranslationCache extends LocalStorageBackend {
  override save(language: string, namespace: string, data: Parameters<LocalStorageBackend['save']>[2]): void {
    if (!isBundled(data)) super.save(language, namespace, data);
  }
}

/** The page follows its language: `lang` and `dir` on <html>, and the formats of dates, numbers and sizes. */
export function followPageLanguage(instance: i18n): void {
  instance.on('languageChanged', (lng) => {
    followFormatLanguage(lng);
    if (typeof document === 'undefined') return;
    document.documentElement.lang = lng;
    // Arabic lays the whole page out right to left; the CSS uses logical properties throughout.
    document.documentElement.dir = directionOf(lng);
  });
}

export const namespaces = ['strings', 'auth', 'dashboard', 'account', 'server'] as const;
export const defaultLanguage = 'en';

export interface I18nOptions {
  language?: string;
  /** Where the panel serves translation files; tests point it at their own server. */
  loadPath?: string;
  /** Languages that have files (from the build); any other falls back to English without a request. */
  languages?: string[];
  /** Cached translations of another version are refetched. */
  version?: string;
}

/**
 * Translations come from local storage when a fresh copy is there (7 days), otherwise from the panel at
 * /locales/{lng}/{ns}.json. The HTTP backend retries 5xx answers, gives up on 4xx, and treats bad JSON as a failure;
 * a namespace it could not get comes from the English files bundled at build time (lib/bundled-backend.ts), so the
 * page never shows bare keys.
 */
export function createI18n({
  language = defaultLanguage,
  loadPath = '/locales/{{lng}}/{{ns}}.json',
  languages = __AERIE_LOCALES__.languages,
  version = __AERIE_LOCALES__.version,
}: I18nOptions = {}): { i18n: i18n; ready: Promise<unknown> } {
  const instance = i18next.createInstance();
  followPageLanguage(instance);
  const shipped = languages.length > 0 ? languages : [defaultLanguage];
  const ready = instance
    .use(ChainedBackend)
    .use(initReactI18next)
    .init({
      lng: shipped.includes(language) ? language : defaultLanguage,
      // No fallback language to load beside the page's own: the built files of every language are English with the
      // translation laid over it (locales.config.ts), which is the per-key fallback.
      fallbackLng: false,
      supportedLngs: shipped,
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      ns: [...namespaces],
      defaultNS: 'strings',
      keySeparator: '.',
      // React escapes what it renders.
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      backend: {
        backends: [TranslationCache, RetryingHttpBackend, BundledBackend],
        backendOptions: [
          {
            prefix: limits.translationCachePrefix,
            expirationTime: limits.translationCacheMs,
            defaultVersion: version,
          },
          { loadPath },
          {},
        ],
      },
    });
  return { i18n: instance, ready };
}
