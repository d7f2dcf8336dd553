import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { AdminTable } from '@/components/admin/admin-table';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { deleteNest, nestsQueryOptions, useNestsMutation } from '@/features/admin-nests/api/nests';
import { DeleteButton } from '@/features/admin-nests/components/delete-button';
import { ImportEggModal } from '@/features/admin-nests/components/import-egg-modal';
import { NestFormModal } from '@/features/admin-nests/components/nest-form-modal';
import { useAdminCan } from '@/hooks/use-admin-can';

const nestFlashKey = 'admin:nest';

/** /admin/nests/view/:id — the nest's details and its eggs, with the egg import. */
export function NestView({ nestId }: { nestId: number }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const { data, isError } = useQuery(nestsQueryOptions());
  const [editing, setEditing] = useState(false);
  const [importing, setImporting] = useState(false);
  const remove = useNestsMutation(deleteNest);
  const canWrite = useAdminCan('nests.write');
  const canImport = useAdminCan('eggs.write');
  const nest = data?.find((item) => item.id === nestId);

  if (isError || (data && !nest))
    return <NotFoundPage onBack={() => navigate(paths.adminSection('nests'))} />;
  if (!nest) return <SpinnerBlock />;

  return (
    <AdminPage
      title={nest.name}
      description={nest.description ?? undefined}
      flashKey={nestFlashKey}
      actions={
        <>
          <Link
            to={paths.adminSection('nests')}
            className="self-center text-sm text-brand-300 hover:underline"
          >
            {t('actions.back')}
          </Link>
          {canWrite && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              {t('nests.edit')}
            </Button>
          )}
          {canImport && <Button onClick={() => setImporting(true)}>{t('nests.import_title')}</Button>}
          {canWrite && (
            <DeleteButton
              title={t('nests.delete_title', { name: nest.name })}
              text={t('nests.delete_text')}
              onDelete={async () => {
                await remove.mutateAsync([nest.id]);
                navigate(paths.adminSection('nests'));
              }}
            />
          )}
        </>
      }
    >
      <p className="mb-4 text-xs text-ink-400">
        {t('nests.author', { author: nest.author, uuid: nest.uuid })}
      </p>
      <ContentBox title={t('nests.eggs')}>
        <AdminTable
          caption={t('nests.eggs')}
          rows={nest.eggs}
          rowKey={(egg) => egg.id}
          empty={t('nests.no_eggs')}
          columns={[
            { key: 'id', header: t('nests.id'), cell: (egg) => egg.id },
            {
              key: 'name',
              header: t('nests.name'),
              cell: (egg) => (
                <Link
                  to={paths.adminSection(`nests/egg/${egg.id}`)}
                  className="text-brand-300 hover:underline"
                >
                  {egg.name}
                </Link>
              ),
            },
            { key: 'description', header: t('nests.description'), cell: (egg) => egg.description ?? '' },
          ]}
        />
      </ContentBox>
      <NestFormModal visible={editing} nest={nest} onClose={() => setEditing(false)} />
      <ImportEggModal
        nests={[nest]}
        nestId={nest.id}
        visible={importing}
        onClose={() => setImporting(false)}
        pageFlashKey={nestFlashKey}
      />
    </AdminPage>
  );
}
