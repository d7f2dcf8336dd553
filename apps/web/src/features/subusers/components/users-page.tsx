import { hasPermission } from '@aerie/shared/permissions/can';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { SpinnerBlock } from '@/components/ui/spinner';
import { Can } from '@/features/servers/components/can';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { permissionCatalogueQueryOptions } from '@/features/subusers/api/permissions';
import { type Subuser, subusersQueryOptions, useDeleteSubuser } from '@/features/subusers/api/subusers';
import { SubuserModal } from '@/features/subusers/components/subuser-modal';
import { SubuserRow } from '@/features/subusers/components/subuser-row';
import { subusersFlashKey } from '@/features/subusers/components/subusers-flash-keys';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

/** Which subuser the modal shows (none: an invitation) and whether it is open or fading out. */
interface ModalState {
  subuser?: Subuser;
  open: boolean;
}

/**
 * The Users page's content (spec §2 "Users"): the server's subusers, New User for those with user.create, the
 * subuser modal, and removal after a confirmation. Errors of the list, the catalogue and deletes flash under
 * `users`.
 */
export function UsersPage() {
  const { t } = useTranslation('server');
  const server = useServer();
  const held = useServerPermissions();
  const viewer = useUserStore((state) => state.user?.uuid);
  const subusers = useQuery(subusersQueryOptions(server.id));
  const catalogue = useQuery(permissionCatalogueQueryOptions());
  const remove = useDeleteSubuser(server.id);
  const [modal, setModal] = useState<ModalState | null>(null);
  const [deleting, setDeleting] = useState<Subuser | null>(null);
  const [confirming, setConfirming] = useState(false);

  const loadError = subusers.error ?? catalogue.error;
  useEffect(() => {
    if (loadError) flashActions().clearAndAddHttpError({ key: subusersFlashKey, error: loadError });
  }, [loadError]);

  if (!subusers.data || !catalogue.data) return loadError ? null : <SpinnerBlock />;

  const canUpdate = hasPermission(held, 'user.update');

  const handleAskDelete = (subuser: Subuser) => {
    setDeleting(subuser);
    setConfirming(true);
  };

  const handleConfirmDelete = async () => {
    if (!deleting) return;
    flashActions().clearFlashes(subusersFlashKey);
    try {
      await remove.mutateAsync(deleting.uuid);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: subusersFlashKey, error });
    }
    setConfirming(false);
  };

  return (
    <>
      {subusers.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center text-sm text-ink-300">
          {t('users.empty')}
        </p>
      ) : (
        <ul aria-label={t('users.list_label')} className="space-y-2">
          {subusers.data.map((subuser) => (
            <SubuserRow
              key={subuser.uuid}
              subuser={subuser}
              isSelf={subuser.uuid === viewer}
              canUpdate={canUpdate}
              onOpen={(opened) => setModal({ subuser: opened, open: true })}
              onDelete={handleAskDelete}
            />
          ))}
        </ul>
      )}
      <Can action="user.create">
        <div className="mt-6 flex justify-end">
          <Button onClick={() => setModal({ open: true })}>{t('users.new')}</Button>
        </div>
      </Can>
      {modal && (
        <SubuserModal
          visible={modal.open}
          subuser={modal.subuser}
          catalogue={catalogue.data}
          onClose={() => setModal({ ...modal, open: false })}
          onDismissed={() => setModal(null)}
        />
      )}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('users.delete.title')}
        confirmLabel={t('users.delete.confirm')}
        cancelLabel={t('users.delete.cancel')}
        onConfirm={() => void handleConfirmDelete()}
        isLoading={remove.isPending}
      >
        {t('users.delete.message', { email: deleting?.email ?? '' })}
      </ConfirmationModal>
    </>
  );
}
