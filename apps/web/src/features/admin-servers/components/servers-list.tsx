import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { AdminTable } from '@/components/admin/admin-table';
import { buttonClasses } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { type AdminServer, adminServersQueryOptions } from '@/features/admin-servers/api/admin-servers';
import { ServerStatusBadge } from '@/features/admin-servers/components/server-status-badge';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

/** Every server, searched by name, with its owner, node and state. */
export function ServersList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, 300);
  const { data } = useQuery(adminServersQueryOptions(page, query));
  const canWrite = useAdminCan('servers.write');
  return (
    <AdminPage
      title={t('servers.title')}
      description={t('servers.description')}
      flashKey="admin:servers"
      actions={
        canWrite && (
          <Link to={paths.adminSection('servers/new')} className={buttonClasses('primary', 'md')}>
            {t('servers.create')}
          </Link>
        )
      }
    >
      <Input
        type="search"
        aria-label={t('servers.search')}
        placeholder={t('servers.search')}
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setPage(1);
        }}
        className="mb-4 max-w-sm"
      />
      {!data ? (
        <SpinnerBlock />
      ) : (
        <>
          <AdminTable<AdminServer>
            caption={t('servers.title')}
            rows={data.items}
            rowKey={(server) => server.id}
            empty={t('servers.empty')}
            columns={[
              {
                key: 'name',
                header: t('servers.columns.name'),
                cell: (server) => (
                  <Link
                    to={paths.adminServer(server.id)}
                    className="font-medium text-brand-300 hover:underline"
                  >
                    {server.name}
                  </Link>
                ),
              },
              {
                key: 'owner',
                header: t('servers.columns.owner'),
                cell: (server) => server.owner?.username ?? server.userId,
              },
              {
                key: 'node',
                header: t('servers.columns.node'),
                cell: (server) => server.node?.name ?? server.nodeId,
              },
              {
                key: 'status',
                header: t('servers.columns.status'),
                cell: (server) => <ServerStatusBadge status={server.status} />,
              },
            ]}
          />
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('servers.total', { count: data.total })}</span>
            <Pagination currentPage={data.currentPage} totalPages={data.totalPages} onPageSelect={setPage} />
          </div>
        </>
      )}
    </AdminPage>
  );
}
