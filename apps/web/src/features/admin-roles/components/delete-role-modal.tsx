import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { MessageBox } from '@/components/ui/message-box';
import { type AdminRole, useDeleteAdminRole } from '@/features/admin-roles/api/admin-roles';
import { errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

export const rolesFlashKey = 'admin:roles';

/**
 * Asks before deleting a role (its users lose the admin area at once), shows a refusal inside the dialog, and
 * leaves the success message on the roles list.
 */
export function DeleteRoleModal({
  role,
  visible,
  onClose,
  onDeleted,
}: {
  role: AdminRole | null;
  visible: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('admin');
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useDeleteAdminRole();

  const handleDelete = async () => {
    if (!role) return;
    try {
      await remove.mutateAsync(role.id);
      flashActions().clearFlashes(rolesFlashKey);
      flashActions().addFlash({
        key: rolesFlashKey,
        type: 'success',
        message: t('roles.deleted', { name: role.name }),
      });
      onDeleted();
    } catch (error) {
      setRefusal(errorToMessage(error));
    }
  };

  return (
    <ConfirmationModal
      visible={visible}
      onClose={() => {
        setRefusal(null);
        onClose();
      }}
      title={t('roles.delete_title')}
      confirmLabel={t('roles.delete_confirm')}
      cancelLabel={t('actions.cancel')}
      onConfirm={() => void handleDelete()}
      isLoading={remove.isPending}
      notice={
        refusal && (
          <MessageBox type="error" title={t('roles.delete_refused')} className="mb-4">
            {refusal}
          </MessageBox>
        )
      }
    >
      {t('roles.delete_text', { name: role?.name ?? '' })}
    </ConfirmationModal>
  );
}
