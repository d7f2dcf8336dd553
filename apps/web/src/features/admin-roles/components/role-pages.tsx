import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { MessageBox } from '@/components/ui/message-box';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { adminRoleQueryOptions } from '@/features/admin-roles/api/admin-roles';
import { DeleteRoleModal } from '@/features/admin-roles/components/delete-role-modal';
import { RoleEditor } from '@/features/admin-roles/components/role-editor';
import { useAdminCan } from '@/hooks/use-admin-can';
import { ApiError, errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

const pageFlashKey = 'admin:role';

/** /admin/roles/new */
export function NewRolePage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <AdminPage title={t('roles.new_title')} description={t('roles.edit_description')}>
      <RoleEditor
        onSaved={(role) => {
          flashActions().addFlash({ key: pageFlashKey, type: 'success', message: t('roles.created') });
          navigate(paths.adminSection(`roles/${role.id}`));
        }}
      />
    </AdminPage>
  );
}

/** /admin/roles/:id: the role's form and grid, and its deletion. */
export function RolePage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const role = useQuery({ ...adminRoleQueryOptions(id), enabled: valid, retry: false });
  const canWrite = useAdminCan('roles.write');
  const [confirming, setConfirming] = useState(false);

  if (!valid || (role.error instanceof ApiError && role.error.status === 404)) return <NotFoundPage />;
  if (role.error) {
    return (
      <AdminPage title={t('roles.title')}>
        <MessageBox type="error" title={t('roles.error')}>
          {errorToMessage(role.error)}
        </MessageBox>
      </AdminPage>
    );
  }

  return (
    <AdminPage
      title={role.data?.name ?? t('roles.title')}
      description={role.data?.description ?? t('roles.edit_description')}
      flashKey={pageFlashKey}
      actions={
        role.data &&
        canWrite && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('roles.delete')}
          </Button>
        )
      }
    >
      {role.data ? (
        <RoleEditor
          key={role.data.id}
          role={role.data}
          onSaved={() => {
            flashActions().clearFlashes(pageFlashKey);
            flashActions().addFlash({ key: pageFlashKey, type: 'success', message: t('roles.saved') });
          }}
        />
      ) : (
        <SpinnerBlock />
      )}
      <DeleteRoleModal
        role={role.data ?? null}
        visible={confirming}
        onClose={() => setConfirming(false)}
        onDeleted={() => navigate(paths.adminSection('roles'))}
      />
    </AdminPage>
  );
}
