import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { Button } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { type AdminNode, nodesQueryOptions } from '@/features/admin-nodes/api/nodes';
import { nodesFlashKey } from '@/features/admin-nodes/components/admin-nodes-flash-keys';
import { CreateNodeModal } from '@/features/admin-nodes/components/create-node-modal';
import { NodeHealthBadge } from '@/features/admin-nodes/components/node-health';
import { overviewQueryOptions } from '@/features/admin-overview/api/overview';
import { useAdminCan } from '@/hooks/use-admin-can';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';
import { formatBytes, megabytesToBytes } from '@/utils/format-bytes';

/** "used of total" in MiB, as bytes for people. */
const usage = (used: number, total: number) =>
  `${formatBytes(megabytesToBytes(used))} / ${formatBytes(megabytesToBytes(total))}`;

/** Every node with its location, address, memory and disk given out, and its daemon's health (every 30 s). */
export function NodesList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const nodes = useQuery(nodesQueryOptions(page));
  const overview = useQuery(overviewQueryOptions());
  const [creating, setCreating] = useState(false);
  const canWrite = useAdminCan('nodes.write');

  useEffect(() => {
    if (nodes.error) flashActions().clearAndAddHttpError({ key: nodesFlashKey, error: nodes.error });
  }, [nodes.error]);

  const health = new Map((overview.data?.nodes ?? []).map((node) => [node.id, node]));
  const columns: AdminColumn<AdminNode>[] = [
    {
      key: 'health',
      header: t('nodes.columns.health'),
      cell: (node) => <NodeHealthBadge health={health.get(node.id)} />,
    },
    {
      key: 'name',
      header: t('nodes.columns.name'),
      cell: (node) => (
        <div className="flex flex-wrap items-center gap-2">
          <Link
            to={`/admin/nodes/view/${node.id}`}
            className="font-medium text-brand-300 hover:text-brand-200"
          >
            {node.name}
          </Link>
          {node.maintenanceMode && (
            <span className="rounded bg-amber-500/20 px-2 py-0.5 text-xs text-amber-300">
              {t('overview.maintenance')}
            </span>
          )}
          {!node.public && <span className="text-xs text-ink-500">{t('nodes.private')}</span>}
        </div>
      ),
    },
    { key: 'location', header: t('nodes.columns.location'), cell: (node) => node.location?.short ?? '—' },
    {
      key: 'fqdn',
      header: t('nodes.columns.fqdn'),
      cell: (node) => <code className="text-xs">{`${node.scheme}://${node.fqdn}:${node.daemonListen}`}</code>,
      className: 'hidden lg:table-cell',
    },
    {
      key: 'memory',
      header: t('nodes.columns.memory'),
      cell: (node) => usage(node.allocated.memory, node.memory),
      className: 'whitespace-nowrap',
    },
    {
      key: 'disk',
      header: t('nodes.columns.disk'),
      cell: (node) => usage(node.allocated.disk, node.disk),
      className: 'whitespace-nowrap',
    },
  ];

  const data = nodes.data;
  return (
    <AdminPage
      title={t('nodes.title')}
      description={t('nodes.description')}
      flashKey={nodesFlashKey}
      actions={canWrite && <Button onClick={() => setCreating(true)}>{t('nodes.create')}</Button>}
    >
      {!data ? (
        nodes.isPending && <SpinnerBlock />
      ) : (
        <>
          <AdminTable
            caption={t('nodes.title')}
            columns={columns}
            rows={data.items}
            rowKey={(node) => node.id}
            empty={t('nodes.empty')}
          />
          <Pagination
            className="mt-4"
            currentPage={data.currentPage}
            totalPages={data.totalPages}
            onPageSelect={setPage}
          />
        </>
      )}
      <CreateNodeModal visible={creating} onClose={() => setCreating(false)} />
    </AdminPage>
  );
}
