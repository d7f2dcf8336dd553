import { useTranslation } from 'react-i18next';
import { LineChart } from '@/features/console/components/line-chart';
import type { StatSample } from '@/features/console/hooks/use-live-stats';
import type { ServerLimits } from '@/features/servers/api/transformers';
import { formatBytes, megabytesToBytes } from '@/utils/format-bytes';
import { formatPercent } from '@/utils/format-percent';

/** Live CPU, memory and network charts of the last 20 `stats` events. */
export function StatGraphs({ samples, limits }: { samples: StatSample[]; limits: ServerLimits }) {
  const { t } = useTranslation('server');
  const bytes = (value: number) => formatBytes(value);
  return (
    <div className="mt-4 grid gap-4 md:grid-cols-3">
      <LineChart
        title={t('console.charts.cpu')}
        limit={limits.cpu}
        series={[
          {
            label: t('console.charts.cpu'),
            values: samples.map((s) => s.cpuPercent),
            stroke: 'stroke-brand-400',
            format: formatPercent,
          },
        ]}
      />
      <LineChart
        title={t('console.charts.memory')}
        limit={megabytesToBytes(limits.memory)}
        series={[
          {
            label: t('console.charts.memory'),
            values: samples.map((s) => s.memoryBytes),
            stroke: 'stroke-emerald-400',
            format: bytes,
          },
        ]}
      />
      <LineChart
        title={t('console.charts.network')}
        series={[
          {
            label: t('console.charts.inbound'),
            values: samples.map((s) => s.rxDelta),
            stroke: 'stroke-violet-400',
            format: bytes,
          },
          {
            label: t('console.charts.outbound'),
            values: samples.map((s) => s.txDelta),
            stroke: 'stroke-amber-400',
            format: bytes,
          },
        ]}
      />
    </div>
  );
}
