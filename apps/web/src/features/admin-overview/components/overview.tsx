import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { AdminPage } from '@/components/admin/admin-page';
import { ContentBox } from '@/components/ui/content-box';
import { SpinnerBlock } from '@/components/ui/spinner';
import { overviewQueryOptions } from '@/features/admin-overview/api/overview';
import { formatBytes } from '@/utils/format-bytes';

const STATUSES = [
  'normal',
  'installing',
  'install_failed',
  'reinstall_failed',
  'suspended',
  'restoring_backup',
] as const;

/** The admin overview: the panel's version, each node's daemon health (live), servers by state. */
export function Overview() {
  const { t } = useTranslation('admin');
  const { data } = useQuery(overviewQueryOptions());
  return (
    <AdminPage
      title={t('overview.title')}
      description={data ? t('overview.version', { version: data.version }) : undefined}
    >
      {!data ? (
        <SpinnerBlock />
      ) : (
        <div className="grid grid-cols-1 gap-6 md:grid-cols-3">
          <ContentBox title={t('overview.nodes_title')} className="md:col-span-2">
            {data.nodes.length === 0 ? (
              <p className="text-sm text-ink-400">{t('overview.no_nodes')}</p>
            ) : (
              <ul className="divide-y divide-ink-800">
                {data.nodes.map((node) => (
                  <li key={node.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <div>
                      <p className="font-medium text-ink-100">{node.name}</p>
                      <p className="text-xs text-ink-400">{node.fqdn}</p>
                    </div>
                    <div className="flex flex-wrap items-center gap-3 text-xs text-ink-300">
                      {node.version && <span>{t('overview.daemon', { version: node.version })}</span>}
                      {node.cpuCount !== null && <span>{t('overview.cpus', { count: node.cpuCount })}</span>}
                      {node.memoryBytes !== null && (
                        <span>{t('overview.memory', { memory: formatBytes(node.memoryBytes, 1) })}</span>
                      )}
                      {node.maintenanceMode && (
                        <span className="rounded bg-amber-500/20 px-2 py-0.5 text-amber-300">
                          {t('overview.maintenance')}
                        </span>
                      )}
                      <span
                        className={clsx(
                          'rounded px-2 py-0.5 font-semibold',
                          node.online ? 'bg-emerald-500/20 text-emerald-300' : 'bg-red-500/20 text-red-300',
                        )}
                      >
                        {node.online ? t('overview.online') : t('overview.offline')}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ContentBox>
          <ContentBox title={t('overview.servers_title')}>
            <dl className="space-y-2 text-sm">
              <div className="flex justify-between font-semibold text-ink-100">
                <dt>{t('overview.total')}</dt>
                <dd>{data.servers.total}</dd>
              </div>
              {STATUSES.filter((status) => data.servers.byStatus[status]).map((status) => (
                <div key={status} className="flex justify-between text-ink-300">
                  <dt>{t(`overview.status.${status}`)}</dt>
                  <dd>{data.servers.byStatus[status]}</dd>
                </div>
              ))}
            </dl>
          </ContentBox>
        </div>
      )}
    </AdminPage>
  );
}
