import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { Button, buttonClasses } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { type AdminRole, adminRolesQueryOptions } from '@/features/admin-roles/api/admin-roles';
import { DeleteRoleModal, rolesFlashKey } from '@/features/admin-roles/components/delete-role-modal';
import { useAdminCan } from '@/hooks/use-admin-can';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

/** /admin/roles: every admin role with how many permissions it holds; create and delete with roles.write. */
export function RolesList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const roles = useQuery(adminRolesQueryOptions(page));
  const canWrite = useAdminCan('roles.write');
  const [deleting, setDeleting] = useState<AdminRole | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (roles.error) flashActions().clearAndAddHttpError({ key: rolesFlashKey, error: roles.error });
  }, [roles.error]);

  const columns: AdminColumn<AdminRole>[] = [
    {
      key: 'name',
      header: t('roles.columns.name'),
      cell: (role) => (
        <Link
          to={paths.adminSection(`roles/${role.id}`)}
          className="font-medium text-brand-300 hover:text-brand-200"
        >
          {role.name}
        </Link>
      ),
    },
    { key: 'description', header: t('roles.columns.description'), cell: (role) => role.description ?? '' },
    {
      key: 'permissions',
      header: t('roles.columns.permissions'),
      cell: (role) => t('roles.permission_count', { count: role.permissions.length }),
    },
    ...(canWrite
      ? [
          {
            key: 'actions',
            header: <span className="sr-only">{t('roles.columns.actions')}</span>,
            className: 'text-end',
            cell: (role: AdminRole) => (
              <Button
                size="sm"
                variant="danger"
                aria-label={t('roles.delete_named', { name: role.name })}
                onClick={() => {
                  setDeleting(role);
                  setConfirming(true);
                }}
              >
                {t('roles.delete')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  const data = roles.data;
  return (
    <AdminPage
      title={t('roles.title')}
      description={t('roles.description')}
      flashKey={rolesFlashKey}
      actions={
        canWrite && (
          <Link to={paths.adminSection('roles/new')} className={buttonClasses('primary', 'md')}>
            {t('roles.create')}
          </Link>
        )
      }
    >
      {!data ? (
        roles.isPending && <SpinnerBlock />
      ) : (
        <>
          <AdminTable
            caption={t('roles.title')}
            columns={columns}
            rows={data.items}
            rowKey={(role) => role.id}
            empty={t('roles.empty')}
          />
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('list.total', { count: data.total })}</span>
            <Pagination currentPage={data.currentPage} totalPages={data.totalPages} onPageSelect={setPage} />
          </div>
        </>
      )}
      <DeleteRoleModal
        role={deleting}
        visible={confirming}
        onClose={() => setConfirming(false)}
        onDeleted={() => setConfirming(false)}
      />
    </AdminPage>
  );
}
