import { languageNames, languages } from '@aerie/shared/languages/languages';

/** Each shipped language under its own name, whatever the page's language is (a reader finds their own). */
export const languageOptions = languages.map((language) => ({
  value: language,
  label: languageNames[language],
  lang: language,
}));
