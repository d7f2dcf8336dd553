import { formatLanguage } from '@/lib/format-language';

const units = ['Bytes', 'kB', 'MB', 'GB', 'TB'] as const;
/** The same steps as Intl's units, which write each language's own number and unit ("1,5 ko", "1,5 МБ"). */
const intlUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * Sizes in 1024 steps with up to two decimals (spec §9): 1536 → '1.5 kB', 0 → '0 Bytes' in English; in another
 * language the same value as it writes numbers and units.
 */
export function formatBytes(bytes: number, decimals = 2): string {
  const places = Math.max(0, Math.floor(decimals));
  const exponent =
    !Number.isFinite(bytes) || bytes < 1
      ? 0
      : Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  // Number() drops the trailing zeros toFixed leaves ('1.50' → 1.5).
  const value = !Number.isFinite(bytes) || bytes < 1 ? 0 : Number((bytes / 1024 ** exponent).toFixed(places));
  const language = formatLanguage();
  if (language === 'en') return `${value} ${units[exponent]}`;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: intlUnits[exponent],
    maximumFractionDigits: places,
  }).format(value);
}

/** Limits are stored in megabytes (MiB). */
export const megabytesToBytes = (megabytes: number): number => megabytes * 1024 * 1024;
