import { format, formatDistanceToNow, formatDistanceToNowStrict } from 'date-fns';
import { formatDateLocale, formatLanguage } from '@/lib/format-language';

/**
 * A date and time: in English the spec's own pattern (`MMM do, yyyy HH:mm`...), in another language as that
 * language writes a date and time (date-fns' localized `PP p`, with seconds when the English pattern has them).
 */
export function formatDate(date: Date, englishPattern: string): string {
  const locale = formatDateLocale();
  if (formatLanguage() === 'en' || !locale) return format(date, englishPattern);
  return format(date, /s/.test(englishPattern.replace(/'[^']*'/g, '')) ? 'PP pp' : 'PP p', { locale });
}

/** The full date and time of a moment: JavaScript's own wording in English (spec), the localized long form otherwise. */
export function formatFullDate(date: Date): string {
  const locale = formatDateLocale();
  if (formatLanguage() === 'en' || !locale) return date.toString();
  return format(date, 'PPPP pp', { locale });
}

/** "5 minutes ago" / "in 3 hours" in the page's language; `strict` rounds to one unit ("5 minutes"). */
export function formatRelative(date: Date, { strict = true }: { strict?: boolean } = {}): string {
  const locale = formatDateLocale();
  const options = { addSuffix: true, ...(formatLanguage() === 'en' || !locale ? {} : { locale }) };
  return strict ? formatDistanceToNowStrict(date, options) : formatDistanceToNow(date, options);
}
