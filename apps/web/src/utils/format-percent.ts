import { formatLanguage } from '@/lib/format-language';

/** A usage percentage with two decimals: '12.50 %' in English (spec), '12,50 %' or '12.50%' as a language writes it. */
export function formatPercent(percent: number): string {
  const language = formatLanguage();
  if (language === 'en') return `${percent.toFixed(2)} %`;
  return new Intl.NumberFormat(language, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(percent / 100);
}
