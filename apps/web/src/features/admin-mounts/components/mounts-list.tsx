import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { buttonClasses } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { type Mount, mountsQueryOptions } from '@/features/admin-mounts/api/mounts';
import { useAdminCan } from '@/hooks/use-admin-can';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

export const mountsFlashKey = 'admin:mounts';

/** /admin/mounts: every mount, each opening its page. */
export function MountsList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const mounts = useQuery(mountsQueryOptions(page));
  const canWrite = useAdminCan('mounts.write');

  useEffect(() => {
    if (mounts.error) flashActions().clearAndAddHttpError({ key: mountsFlashKey, error: mounts.error });
  }, [mounts.error]);

  const columns: AdminColumn<Mount>[] = [
    {
      key: 'name',
      header: t('mounts.columns.name'),
      cell: (mount) => (
        <Link to={`/admin/mounts/${mount.id}`} className="font-medium text-brand-400 hover:underline">
          {mount.name}
        </Link>
      ),
    },
    {
      key: 'source',
      header: t('mounts.columns.source'),
      cell: (mount) => <code className="font-mono text-xs">{mount.source}</code>,
    },
    {
      key: 'target',
      header: t('mounts.columns.target'),
      cell: (mount) => <code className="font-mono text-xs">{mount.target}</code>,
    },
    {
      key: 'flags',
      header: t('mounts.columns.access'),
      cell: (mount) =>
        [
          mount.readOnly ? t('mounts.read_only') : t('mounts.writable'),
          mount.userMountable && t('mounts.user_mountable'),
        ]
          .filter(Boolean)
          .join(' · '),
    },
    { key: 'eggs', header: t('mounts.columns.eggs'), cell: (mount) => String(mount.eggs.length) },
    { key: 'nodes', header: t('mounts.columns.nodes'), cell: (mount) => String(mount.nodes.length) },
  ];

  return (
    <AdminPage
      title={t('mounts.title')}
      description={t('mounts.description')}
      flashKey={mountsFlashKey}
      actions={
        canWrite && (
          <Link to="/admin/mounts/new" className={buttonClasses('primary', 'md')}>
            {t('mounts.create')}
          </Link>
        )
      }
    >
      {!mounts.data ? (
        mounts.isPending ? (
          <SpinnerBlock />
        ) : null
      ) : (
        <>
          <AdminTable
            caption={t('mounts.title')}
            columns={columns}
            rows={mounts.data.items}
            rowKey={(mount) => mount.id}
            empty={t('mounts.empty')}
          />
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('list.total', { count: mounts.data.total })}</span>
            <Pagination
              currentPage={mounts.data.currentPage}
              totalPages={mounts.data.totalPages}
              onPageSelect={setPage}
            />
          </div>
        </>
      )}
    </AdminPage>
  );
}
