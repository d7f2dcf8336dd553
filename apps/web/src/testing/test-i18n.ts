import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { followPageLanguage, namespaces } from '@/lib/i18n';

// The real English files, bundled into the test so component tests assert the texts users will read.
const files = import.meta.glob<Record<string, unknown>>('../../public/locales/en/*.json', {
  eager: true,
  import: 'default',
});

const resources = Object.fromEntries(
  Object.entries(files).map(([path, content]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), content]),
);

export function createTestI18n(): i18n {
  const instance = i18next.createInstance();
  followPageLanguage(instance);
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    ns: [...namespaces],
    defaultNS: 'strings',
    keySeparator: '.',
    resources: { en: resources },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}
