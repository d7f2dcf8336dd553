import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { buttonClasses } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  type DatabaseHost,
  databaseHostsQueryOptions,
  nodeOptionsQueryOptions,
} from '@/features/admin-database-hosts/api/database-hosts';
import { useAdminCan } from '@/hooks/use-admin-can';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

export const databaseHostsFlashKey = 'admin:database-hosts';

/** /admin/databases: every database host, each opening its edit page. */
export function DatabaseHostsList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const hosts = useQuery(databaseHostsQueryOptions(page));
  const canWrite = useAdminCan('database_hosts.write');
  const nodes = useQuery(nodeOptionsQueryOptions());

  useEffect(() => {
    if (hosts.error) flashActions().clearAndAddHttpError({ key: databaseHostsFlashKey, error: hosts.error });
  }, [hosts.error]);

  const nodeName = (id: number | null) => {
    if (id === null) return t('database_hosts.no_node');
    return nodes.data?.find((node) => node.id === id)?.name ?? t('database_hosts.node_number', { id });
  };

  const columns: AdminColumn<DatabaseHost>[] = [
    {
      key: 'name',
      header: t('database_hosts.columns.name'),
      cell: (host) => (
        <Link to={`/admin/databases/${host.id}`} className="font-medium text-brand-400 hover:underline">
          {host.name}
        </Link>
      ),
    },
    {
      key: 'host',
      header: t('database_hosts.columns.host'),
      cell: (host) => <code className="font-mono text-xs">{`${host.host}:${host.port}`}</code>,
    },
    { key: 'username', header: t('database_hosts.columns.username'), cell: (host) => host.username },
    {
      key: 'driver',
      header: t('database_hosts.columns.driver'),
      cell: (host) => t(`database_hosts.drivers.${host.driver}`),
    },
    { key: 'node', header: t('database_hosts.columns.node'), cell: (host) => nodeName(host.nodeId) },
  ];

  return (
    <AdminPage
      title={t('database_hosts.title')}
      description={t('database_hosts.description')}
      flashKey={databaseHostsFlashKey}
      actions={
        canWrite && (
          <Link to="/admin/databases/new" className={buttonClasses('primary', 'md')}>
            {t('database_hosts.create')}
          </Link>
        )
      }
    >
      {!hosts.data ? (
        hosts.isPending ? (
          <SpinnerBlock />
        ) : null
      ) : (
        <>
          <AdminTable
            caption={t('database_hosts.title')}
            columns={columns}
            rows={hosts.data.items}
            rowKey={(host) => host.id}
            empty={t('database_hosts.empty')}
          />
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('list.total', { count: hosts.data.total })}</span>
            <Pagination
              currentPage={hosts.data.currentPage}
              totalPages={hosts.data.totalPages}
              onPageSelect={setPage}
            />
          </div>
        </>
      )}
    </AdminPage>
  );
}
