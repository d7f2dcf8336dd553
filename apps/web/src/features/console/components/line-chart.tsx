import { useTranslation } from 'react-i18next';
import { chartSamples } from '@/features/console/hooks/use-live-stats';

export interface ChartSeries {
  label: string;
  values: number[];
  /** Tailwind stroke colour class. */
  stroke: string;
  format: (value: number) => string;
}

const width = 100;
const height = 40;

/** Points of one series, right-aligned so the newest sample is always at the right edge. */
function points(values: number[], max: number): string {
  const step = width / (chartSamples - 1);
  const offset = chartSamples - values.length;
  return values
    .map((value, i) => {
      const x = (offset + i) * step;
      const y = height - (Math.min(value, max) / max) * (height - 2) - 1;
      return `${x.toFixed(2)},${y.toFixed(2)}`;
    })
    .join(' ');
}

/**
 * A small hand-drawn line chart of the last samples (no chart library: the console page stays light). The
 * current figure of each series reads above it; the scale is the limit, or the highest sample when there is none.
 */
export function LineChart({
  title,
  series,
  limit,
}: {
  title: string;
  series: ChartSeries[];
  limit?: number;
}) {
  const { t } = useTranslation('server');
  const highest = Math.max(0, ...series.flatMap((s) => s.values));
  const max = limit && limit > 0 ? Math.max(limit, highest) : highest > 0 ? highest * 1.2 : 1;
  return (
    <figure className="rounded-xl border border-ink-800 bg-ink-900/70 p-4">
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-xs font-semibold uppercase tracking-wider text-ink-400">{title}</span>
        <span className="flex gap-3 font-mono text-sm text-ink-100">
          {series.map((s) => (
            <span key={s.label} data-series={s.label}>
              {series.length > 1 && <span className="me-1 text-ink-500">{s.label}</span>}
              {s.format(s.values.at(-1) ?? 0)}
            </span>
          ))}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('console.charts.chart_label', { title, count: chartSamples })}
        className="h-24 w-full"
      >
        {series.map((s) => (
          <polyline
            key={s.label}
            points={points(s.values, max)}
            fill="none"
            strokeWidth={1.5}
            vectorEffect="non-scaling-stroke"
            className={s.stroke}
          />
        ))}
      </svg>
    </figure>
  );
}
