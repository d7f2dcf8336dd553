import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { AdminTable } from '@/components/admin/admin-table';
import { Button } from '@/components/ui/button';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { deleteNest, type Nest, nestsQueryOptions, useNestsMutation } from '@/features/admin-nests/api/nests';
import { DeleteButton } from '@/features/admin-nests/components/delete-button';
import { ImportEggModal } from '@/features/admin-nests/components/import-egg-modal';
import { NestFormModal } from '@/features/admin-nests/components/nest-form-modal';
import { useAdminCan } from '@/hooks/use-admin-can';

/** /admin/nests: every nest with its egg count; create, edit and delete. */
export function NestsList() {
  const { t } = useTranslation('admin');
  const { data } = useQuery(nestsQueryOptions());
  const [editing, setEditing] = useState<Nest | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const remove = useNestsMutation(deleteNest);
  const canWrite = useAdminCan('nests.write');
  const canImport = useAdminCan('eggs.write');

  return (
    <AdminPage
      title={t('nests.title')}
      description={t('nests.description_page')}
      flashKey="admin:nests"
      actions={
        <>
          {canImport && (
            <Button variant="secondary" onClick={() => setImporting(true)} disabled={!data?.length}>
              {t('nests.import_title')}
            </Button>
          )}
          {canWrite && <Button onClick={() => setEditing('new')}>{t('nests.create')}</Button>}
        </>
      }
    >
      {!data ? (
        <SpinnerBlock />
      ) : (
        <AdminTable
          caption={t('nests.title')}
          rows={data}
          rowKey={(nest) => nest.id}
          empty={t('nests.empty')}
          columns={[
            {
              key: 'name',
              header: t('nests.name'),
              cell: (nest) => (
                <Link
                  to={paths.adminSection(`nests/view/${nest.id}`)}
                  className="text-brand-300 hover:underline"
                >
                  {nest.name}
                </Link>
              ),
            },
            { key: 'description', header: t('nests.description'), cell: (nest) => nest.description ?? '' },
            {
              key: 'eggs',
              header: t('nests.eggs'),
              cell: (nest) => nest.eggs.length,
              className: 'text-center',
            },
            {
              key: 'actions',
              header: <span className="sr-only">{t('nests.actions')}</span>,
              className: 'text-end',
              cell: (nest) =>
                canWrite && (
                  <div className="flex justify-end gap-2">
                    <Button variant="secondary" size="sm" onClick={() => setEditing(nest)}>
                      {t('nests.edit')}
                    </Button>
                    <DeleteButton
                      title={t('nests.delete_title', { name: nest.name })}
                      text={t('nests.delete_text')}
                      onDelete={() => remove.mutateAsync([nest.id])}
                    />
                  </div>
                ),
            },
          ]}
        />
      )}
      <NestFormModal
        visible={editing !== null}
        nest={editing === 'new' || editing === null ? undefined : editing}
        onClose={() => setEditing(null)}
      />
      <ImportEggModal
        nests={data ?? []}
        visible={importing}
        onClose={() => setImporting(false)}
        pageFlashKey="admin:nests"
      />
    </AdminPage>
  );
}
