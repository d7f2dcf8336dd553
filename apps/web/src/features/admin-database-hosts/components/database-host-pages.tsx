import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  databaseHostKeys,
  databaseHostQueryOptions,
  deleteDatabaseHost,
} from '@/features/admin-database-hosts/api/database-hosts';
import { DatabaseHostForm } from '@/features/admin-database-hosts/components/database-host-form';
import { databaseHostsFlashKey } from '@/features/admin-database-hosts/components/database-hosts-list';
import { useAdminCan } from '@/hooks/use-admin-can';
import { ApiError } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

const pageFlashKey = 'admin:database-host';

/** /admin/databases/new */
export function NewDatabaseHostPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <AdminPage title={t('database_hosts.new_title')} description={t('database_hosts.edit_description')}>
      <DatabaseHostForm
        onSaved={(host) => {
          flashActions().addFlash({
            key: pageFlashKey,
            type: 'success',
            message: t('database_hosts.created'),
          });
          navigate(`/admin/databases/${host.id}`);
        }}
      />
    </AdminPage>
  );
}

/** /admin/databases/:id: the host's form and its deletion. */
export function DatabaseHostPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const host = useQuery({ ...databaseHostQueryOptions(id), enabled: valid, retry: false });
  const [confirming, setConfirming] = useState(false);
  const canWrite = useAdminCan('database_hosts.write');
  const remove = useMutation({ mutationFn: () => deleteDatabaseHost(id) });

  if (!valid || (host.error instanceof ApiError && host.error.status === 404)) return <NotFoundPage />;

  const handleDelete = async () => {
    flashActions().clearFlashes(pageFlashKey);
    try {
      await remove.mutateAsync();
      await queryClient.invalidateQueries({ queryKey: databaseHostKeys.all });
      flashActions().addFlash({
        key: databaseHostsFlashKey,
        type: 'success',
        message: t('database_hosts.deleted'),
      });
      navigate('/admin/databases');
    } catch (error) {
      setConfirming(false);
      flashActions().clearAndAddHttpError({ key: pageFlashKey, error });
    }
  };

  return (
    <AdminPage
      title={host.data?.name ?? t('database_hosts.title')}
      description={t('database_hosts.edit_description')}
      flashKey={pageFlashKey}
      actions={
        host.data &&
        canWrite && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('database_hosts.delete')}
          </Button>
        )
      }
    >
      {host.data ? (
        <DatabaseHostForm
          key={host.data.id}
          host={host.data}
          onSaved={() => {
            flashActions().clearFlashes(pageFlashKey);
            flashActions().addFlash({
              key: pageFlashKey,
              type: 'success',
              message: t('database_hosts.saved'),
            });
          }}
        />
      ) : host.isPending ? (
        <SpinnerBlock />
      ) : null}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('database_hosts.delete_title')}
        confirmLabel={t('database_hosts.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleDelete()}
        isLoading={remove.isPending}
      >
        {t('database_hosts.delete_text', { name: host.data?.name ?? '' })}
      </ConfirmationModal>
    </AdminPage>
  );
}
