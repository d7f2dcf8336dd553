import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerStackIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { serverResourcesQueryOptions } from '@/features/servers/api/server-resources';
import {
  allocationAddress,
  type ServerListItem,
  type ServerStats,
} from '@/features/servers/api/transformers';
import { cardBadge, statusTone, usageAlarms } from '@/features/servers/components/server-usage';
import { formatBytes, megabytesToBytes } from '@/utils/format-bytes';
import { formatPercent } from '@/utils/format-percent';

const toneClasses = { red: 'bg-red-500', green: 'bg-emerald-500', amber: 'bg-amber-400' } as const;

function UsageFigure({
  label,
  value,
  limit,
  alarm,
}: {
  label: string;
  value: string;
  limit: string;
  alarm: boolean;
}) {
  return (
    <div data-alarm={alarm || undefined} className="min-w-0">
      <dt className="text-[11px] font-semibold uppercase tracking-wider text-ink-500">{label}</dt>
      <dd className={clsx('font-mono text-sm', alarm ? 'text-red-400' : 'text-ink-100')}>{value}</dd>
      <dd className="truncate text-xs text-ink-500">{limit}</dd>
    </div>
  );
}

/** One server on the dashboard: what it is, where it listens, and its usage refreshed every 30 s. */
export function ServerCard({ server }: { server: ServerListItem }) {
  const { t } = useTranslation('dashboard');
  const usage = useQuery(serverResourcesQueryOptions(server.uuid, server.status === 'suspended'));
  const stats = usage.data;

  useEffect(() => {
    // A failed usage call is only logged; the card says 'Connection Error' (spec §8).
    if (usage.error) console.error(usage.error);
  }, [usage.error]);

  const badge = cardBadge(server, stats, usage.isError);
  const address = server.allocations.find((allocation) => allocation.isDefault);
  const ofLimit = (limit: number, format: (n: number) => string) =>
    t('card.of', { limit: limit > 0 ? format(limit) : t('card.unlimited') });
  const tone = statusTone(stats?.status);

  return (
    <Link
      to={paths.server(server.id)}
      className="group relative flex flex-col gap-4 overflow-hidden rounded-xl border border-ink-800 bg-ink-900/70 p-4 ps-6 transition-colors hover:border-brand-500/50 hover:bg-ink-900 md:flex-row md:items-center"
    >
      <span
        aria-hidden="true"
        data-status-tone={tone}
        className={clsx('absolute inset-y-0 inset-s-0 w-1.5', toneClasses[tone])}
      />
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <ServerStackIcon className="hidden size-8 shrink-0 text-ink-500 sm:block" />
        <div className="min-w-0">
          <p className="truncate text-base font-semibold text-ink-50">{server.name}</p>
          {server.description && <p className="truncate text-sm text-ink-400">{server.description}</p>}
          {address && <p className="truncate font-mono text-xs text-ink-400">{allocationAddress(address)}</p>}
          {stats?.isNodeReconnecting && (
            <p role="status" className="truncate text-xs font-medium text-amber-300">
              {t('card.node_reconnecting')}
            </p>
          )}
        </div>
      </div>
      {badge === null && stats ? (
        <UsageList server={server} stats={stats} ofLimit={ofLimit} />
      ) : badge === 'loading' ? (
        <span className="flex w-72 justify-center text-brand-400">
          <Spinner size="small" label={t('card.loading_usage')} />
        </span>
      ) : (
        <span className="flex w-72 justify-center">
          <span
            className={clsx(
              'rounded-md px-3 py-1 text-xs font-semibold',
              badge === 'suspended' || badge === 'connection_error'
                ? 'bg-red-500/15 text-red-300'
                : 'bg-ink-800 text-ink-300',
            )}
          >
            {badge && t(`badge.${badge}`)}
          </span>
        </span>
      )}
    </Link>
  );
}

interface UsageListProps {
  server: ServerListItem;
  stats: ServerStats;
  ofLimit: (limit: number, format: (n: number) => string) => string;
}

function UsageList({ server, stats, ofLimit }: UsageListProps) {
  const { t } = useTranslation('dashboard');
  const alarms = usageAlarms(server.limits, stats);
  const size = (megabytes: number) => formatBytes(megabytesToBytes(megabytes));
  return (
    <dl className="grid w-full grid-cols-3 gap-4 md:w-72">
      <UsageFigure
        label={t('card.cpu')}
        value={formatPercent(stats.cpuUsagePercent)}
        limit={ofLimit(server.limits.cpu, (cpu) => `${cpu} %`)}
        alarm={alarms.cpu}
      />
      <UsageFigure
        label={t('card.memory')}
        value={formatBytes(stats.memoryUsageInBytes)}
        limit={ofLimit(server.limits.memory, size)}
        alarm={alarms.memory}
      />
      <UsageFigure
        label={t('card.disk')}
        value={formatBytes(stats.diskUsageInBytes)}
        limit={ofLimit(server.limits.disk, size)}
        alarm={alarms.disk}
      />
    </dl>
  );
}
