import { isLanguage, preferredLanguage } from '@aerie/shared/languages/languages';

/**
 * The language a page opens in: the signed-in user's own (their `language`); for a guest, the first shipped
 * language the browser prefers; otherwise the panel's default language, and English when that is unknown too.
 */
export function pageLanguage(
  user: { language: string } | null | undefined,
  browserLanguages: readonly string[],
  panelDefault: string,
): string {
  if (user && isLanguage(user.language)) return user.language;
  const preferred = user ? undefined : preferredLanguage(browserLanguages);
  if (preferred) return preferred;
  return isLanguage(panelDefault) ? panelDefault : 'en';
}
