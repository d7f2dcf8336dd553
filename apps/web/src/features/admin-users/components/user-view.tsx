import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { FormBox } from '@/components/ui/form-box';
import { MessageBox } from '@/components/ui/message-box';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import {
  toUserBody,
  type UserFormValues,
  userFormFields,
  userFormSchema,
  userFormValues,
} from '@/features/admin-users/api/user-form';
import {
  type AdminUser,
  useDeleteUser,
  userQueryOptions,
  useUpdateUser,
} from '@/features/admin-users/api/users';
import { adminUsersFlashKey, userFlashKey } from '@/features/admin-users/components/admin-users-flash-keys';
import { UserFormFields } from '@/features/admin-users/components/user-form-fields';
import { UserRoleBox } from '@/features/admin-users/components/user-role-box';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';
import { errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

/** /admin/users/view/:id — a user's details (editable), the servers they own, and deletion. */
export function UserView({ id }: { id: number }) {
  const { t } = useTranslation('admin');
  const user = useQuery(userQueryOptions(id));

  if (user.error) {
    return (
      <AdminPage title={t('users.title')}>
        <MessageBox type="error" title={t('users.error')}>
          {errorToMessage(user.error)}
        </MessageBox>
      </AdminPage>
    );
  }
  if (!user.data) return <SpinnerBlock />;
  return <UserDetails user={user.data} />;
}

function UserDetails({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const canWrite = useAdminCan('users.write');
  return (
    <AdminPage
      title={user.username}
      description={user.email}
      flashKey={userFlashKey}
      actions={
        <Link to={paths.adminSection('users')} className="text-sm text-ink-300 hover:text-white">
          {t('actions.back')}
        </Link>
      }
    >
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="xl:col-span-2">
          <EditUserForm user={user} />
        </div>
        <div className="space-y-6">
          <UserRoleBox user={user} />
          <UserServers user={user} />
          {canWrite && <DeleteUser user={user} />}
        </div>
      </div>
    </AdminPage>
  );
}

function EditUserForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const canWrite = useAdminCan('users.write');
  const update = useUpdateUser(user.id);
  const { form, submit: handleSubmit } = useSaveForm({
    schema: userFormSchema,
    defaultValues: userFormValues(user),
    flashKey: userFlashKey,
    apiFields: userFormFields,
    save: (values: UserFormValues) => update.mutateAsync(toUserBody(values)),
    onSaved: (saved, savedForm) => {
      savedForm.reset(userFormValues(saved));
      flashActions().addFlash({ key: userFlashKey, type: 'success', message: t('users.updated') });
    },
  });

  return (
    <FormBox
      title={t('users.details_title')}
      form={form}
      onSubmit={handleSubmit}
      submitLabel={t('actions.save')}
      isSaving={update.isPending}
      readOnly={!canWrite}
      className="space-y-6"
    >
      <UserFormFields mode="edit" />
    </FormBox>
  );
}

function UserServers({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const servers = user.servers ?? [];
  return (
    <ContentBox title={t('users.servers_title')}>
      {servers.length === 0 ? (
        <p className="text-sm text-ink-400">{t('users.no_servers')}</p>
      ) : (
        <ul aria-label={t('users.servers_title')} className="divide-y divide-ink-800">
          {servers.map((server) => (
            <li key={server.id} className="flex items-center justify-between gap-3 py-2">
              <Link
                to={paths.adminServer(server.id)}
                className="min-w-0 truncate font-medium text-brand-300 hover:text-brand-200"
              >
                {server.name}
              </Link>
              <code className="text-xs text-ink-400">{server.identifier}</code>
            </li>
          ))}
        </ul>
      )}
    </ContentBox>
  );
}

function DeleteUser({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const remove = useDeleteUser();
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    if (confirming) setRefusal(null);
  }, [confirming]);

  const handleConfirm = async () => {
    try {
      await remove.mutateAsync(user.id);
      flashActions().clearFlashes(adminUsersFlashKey);
      flashActions().addFlash({
        key: adminUsersFlashKey,
        type: 'success',
        message: t('users.deleted', { username: user.username }),
      });
      navigate(paths.adminSection('users'));
    } catch (error) {
      setRefusal(errorToMessage(error));
    }
  };

  return (
    <ContentBox title={t('users.delete_title')}>
      <p className="text-sm text-ink-300">{t('users.delete_hint')}</p>
      <Button variant="danger" className="mt-4" onClick={() => setConfirming(true)}>
        {t('users.delete')}
      </Button>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('users.delete_title')}
        confirmLabel={t('users.delete_confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={remove.isPending}
        notice={
          refusal && (
            <MessageBox type="error" title={t('users.delete_refused')} className="mb-4">
              {refusal}
            </MessageBox>
          )
        }
      >
        {t('users.delete_text', { username: user.username })}
      </ConfirmationModal>
    </ContentBox>
  );
}
