import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { deleteMount, mountKeys, mountQueryOptions } from '@/features/admin-mounts/api/mounts';
import { MountForm } from '@/features/admin-mounts/components/mount-form';
import { MountUsage } from '@/features/admin-mounts/components/mount-usage';
import { mountsFlashKey } from '@/features/admin-mounts/components/mounts-list';
import { useAdminCan } from '@/hooks/use-admin-can';
import { ApiError } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

const pageFlashKey = 'admin:mount';

/** /admin/mounts/new */
export function NewMountPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <AdminPage title={t('mounts.new_title')} description={t('mounts.edit_description')}>
      <MountForm
        onSaved={(mount) => {
          flashActions().addFlash({ key: pageFlashKey, type: 'success', message: t('mounts.created') });
          navigate(`/admin/mounts/${mount.id}`);
        }}
      />
    </AdminPage>
  );
}

/** /admin/mounts/:id: the mount's form, where it may be used, and its deletion. */
export function MountPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const mount = useQuery({ ...mountQueryOptions(id), enabled: valid, retry: false });
  const [confirming, setConfirming] = useState(false);
  const canWrite = useAdminCan('mounts.write');
  const remove = useMutation({ mutationFn: () => deleteMount(id) });

  if (!valid || (mount.error instanceof ApiError && mount.error.status === 404)) return <NotFoundPage />;

  const handleDelete = async () => {
    flashActions().clearFlashes(pageFlashKey);
    try {
      await remove.mutateAsync();
      await queryClient.invalidateQueries({ queryKey: mountKeys.all });
      flashActions().addFlash({ key: mountsFlashKey, type: 'success', message: t('mounts.deleted') });
      navigate('/admin/mounts');
    } catch (error) {
      setConfirming(false);
      flashActions().clearAndAddHttpError({ key: pageFlashKey, error });
    }
  };

  return (
    <AdminPage
      title={mount.data?.name ?? t('mounts.title')}
      description={t('mounts.edit_description')}
      flashKey={pageFlashKey}
      actions={
        mount.data &&
        canWrite && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('mounts.delete')}
          </Button>
        )
      }
    >
      {mount.data ? (
        <>
          <MountForm
            key={mount.data.id}
            mount={mount.data}
            onSaved={() => {
              flashActions().clearFlashes(pageFlashKey);
              flashActions().addFlash({ key: pageFlashKey, type: 'success', message: t('mounts.saved') });
            }}
          />
          <MountUsage mount={mount.data} flashKey={pageFlashKey} />
        </>
      ) : mount.isPending ? (
        <SpinnerBlock />
      ) : null}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('mounts.delete_title')}
        confirmLabel={t('mounts.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleDelete()}
        isLoading={remove.isPending}
      >
        {t('mounts.delete_text', { name: mount.data?.name ?? '' })}
      </ConfirmationModal>
    </AdminPage>
  );
}
