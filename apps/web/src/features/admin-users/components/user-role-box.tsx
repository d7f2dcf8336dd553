import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { adminRoleOptionsQueryOptions } from '@/features/admin-roles/api/admin-roles';
import { assignUserRole } from '@/features/admin-roles/api/user-role';
import { type AdminUser, adminUserKeys } from '@/features/admin-users/api/users';
import { useAdminCan } from '@/hooks/use-admin-can';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:user:role';

/**
 * The user's admin role: None or one of the roles, saved on its own (PUT users/{id}/role). Not shown for a root
 * admin, who needs none, nor to a viewer who may not read roles; read-only without users.write. The panel refuses a role beyond the viewer's own, their
 * own role and a root admin's (403, shown here).
 */
export function UserRoleBox({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const canWrite = useAdminCan('users.write');
  // Roles are named only to those who may read them; without roles.read there is nothing to pick from.
  const canReadRoles = useAdminCan('roles.read');
  const roles = useQuery({ ...adminRoleOptionsQueryOptions(), enabled: canReadRoles && !user.rootAdmin });
  const [roleId, setRoleId] = useState(user.roleId === null ? '' : String(user.roleId));
  const save = useMutation({
    mutationFn: (next: number | null) => assignUserRole(user.id, next),
    onSuccess: (_, next) =>
      queryClient.setQueryData<AdminUser>(adminUserKeys.detail(user.id), (cached) =>
        cached ? { ...cached, roleId: next } : cached,
      ),
  });

  useEffect(() => {
    if (roles.error) flashActions().clearAndAddHttpError({ key: flashKey, error: roles.error });
  }, [roles.error]);

  if (user.rootAdmin || !canReadRoles) return null;

  const handleSave = async () => {
    flashActions().clearFlashes(flashKey);
    try {
      await save.mutateAsync(roleId === '' ? null : Number(roleId));
      flashActions().addFlash({ key: flashKey, type: 'success', message: t('users.role_saved') });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  };

  return (
    <ContentBox title={t('users.role_title')}>
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <SelectField
        label={t('users.role')}
        value={roleId}
        disabled={!canWrite || !roles.data}
        description={canWrite ? t('users.role_hint') : t('users.role_read_only')}
        onChange={(event) => setRoleId(event.target.value)}
        options={[
          { value: '', label: t('users.role_none') },
          ...(roles.data ?? []).map((role) => ({ value: String(role.id), label: role.name })),
        ]}
      />
      {canWrite && (
        <Button
          className="mt-4"
          isLoading={save.isPending}
          disabled={!roles.data}
          onClick={() => void handleSave()}
        >
          {t('users.role_save')}
        </Button>
      )}
    </ContentBox>
  );
}
