import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { type AdminUser, type UserSearchField, usersQueryOptions } from '@/features/admin-users/api/users';
import { adminUsersFlashKey } from '@/features/admin-users/components/admin-users-flash-keys';
import { CreateUserModal } from '@/features/admin-users/components/create-user-modal';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

/** How long the search waits after the last key press before it asks the panel. */
export const userSearchDelayMs = 300;

const badge = (on: boolean) =>
  on
    ? 'rounded bg-emerald-500/20 px-2 py-0.5 text-xs font-semibold text-emerald-300'
    : 'text-xs text-ink-500';

/** Every user of the panel, searchable by email or username, with a button to create one. */
export function UsersList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const [searchField, setSearchField] = useState<UserSearchField>('username');
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, userSearchDelayMs);
  const [creating, setCreating] = useState(false);
  const canWrite = useAdminCan('users.write');
  const users = useQuery(usersQueryOptions({ page, search: debounced.trim(), searchField }));

  useEffect(() => {
    if (users.error) flashActions().clearAndAddHttpError({ key: adminUsersFlashKey, error: users.error });
  }, [users.error]);

  const columns: AdminColumn<AdminUser>[] = [
    { key: 'id', header: t('users.columns.id'), cell: (user) => user.id, className: 'w-16 text-ink-400' },
    {
      key: 'username',
      header: t('users.columns.username'),
      cell: (user) => (
        <Link to={`/admin/users/view/${user.id}`} className="font-medium text-brand-300 hover:text-brand-200">
          {user.username}
        </Link>
      ),
    },
    { key: 'email', header: t('users.columns.email'), cell: (user) => user.email },
    {
      key: 'name',
      header: t('users.columns.name'),
      // Names are optional: whichever exist, nothing for an account made without them.
      cell: (user) => [user.firstName, user.lastName].filter(Boolean).join(' '),
      className: 'hidden md:table-cell',
    },
    {
      key: '2fa',
      header: t('users.columns.two_factor'),
      cell: (user) => (
        <span className={badge(user.twoFactor)}>{user.twoFactor ? t('users.yes') : t('users.no')}</span>
      ),
    },
    {
      key: 'admin',
      header: t('users.columns.root_admin'),
      cell: (user) => (
        <span className={badge(user.rootAdmin)}>{user.rootAdmin ? t('users.yes') : t('users.no')}</span>
      ),
    },
    {
      key: 'servers',
      header: t('users.columns.servers'),
      cell: (user) => user.servers?.length ?? '—',
      className: 'text-end',
    },
  ];

  const data = users.data;
  return (
    <AdminPage
      title={t('users.title')}
      description={t('users.description')}
      flashKey={adminUsersFlashKey}
      actions={canWrite && <Button onClick={() => setCreating(true)}>{t('users.create')}</Button>}
    >
      <search className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-44">
          <SelectField
            label={t('users.search_by')}
            value={searchField}
            onChange={(event) => {
              setSearchField(event.target.value as UserSearchField);
              setPage(1);
            }}
            options={[
              { value: 'username', label: t('users.fields.username') },
              { value: 'email', label: t('users.fields.email') },
            ]}
          />
        </div>
        <div className="flex-1">
          <Input
            type="search"
            aria-label={t('users.search')}
            placeholder={t('users.search')}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </div>
      </search>
      {!data ? (
        users.isPending ? (
          <SpinnerBlock />
        ) : null
      ) : (
        <>
          <AdminTable
            caption={t('users.title')}
            columns={columns}
            rows={data.items}
            rowKey={(user) => user.id}
            empty={debounced.trim() ? t('users.no_match') : t('users.empty')}
          />
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('list.total', { count: data.total })}</span>
            <Pagination currentPage={data.currentPage} totalPages={data.totalPages} onPageSelect={setPage} />
          </div>
        </>
      )}
      <CreateUserModal visible={creating} onClose={() => setCreating(false)} />
    </AdminPage>
  );
}
