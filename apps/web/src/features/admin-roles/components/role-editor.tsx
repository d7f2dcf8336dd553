import { type AdminPermission, canInAdmin } from '@aerie/shared/admin-roles/admin-permissions';
import { useId } from 'react';
import { Controller, FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { paths } from '@/config/paths';
import { type AdminRole, useSaveAdminRole } from '@/features/admin-roles/api/admin-roles';
import {
  type RoleFormValues,
  roleFormFields,
  roleFormSchema,
  roleFormValues,
  toRoleBody,
} from '@/features/admin-roles/api/role-form';
import { PermissionGrid } from '@/features/admin-roles/components/permission-grid';
import { useAdminCan, useAdminGrant } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';
import { useTranslatedMessage } from '@/lib/use-translated-message';

export const roleFormFlashKey = 'admin:role:form';

interface RoleEditorProps {
  /** The role being edited; none creates one. */
  role?: AdminRole;
  onSaved: (role: AdminRole) => void;
}

/**
 * A role's name, description and permission grid. Below root, only what the viewer holds can be ticked or
 * unticked (the panel refuses anything else with 403); without roles.write everything is shown read-only.
 */
export function RoleEditor({ role, onSaved }: RoleEditorProps) {
  const { t } = useTranslation('admin');
  const hintId = useId();
  const grant = useAdminGrant();
  const canWrite = useAdminCan('roles.write');
  const save = useSaveAdminRole();
  const { form, submit } = useSaveForm({
    schema: roleFormSchema,
    defaultValues: roleFormValues(role),
    flashKey: roleFormFlashKey,
    apiFields: roleFormFields,
    save: (values: RoleFormValues) => save.mutateAsync({ id: role?.id, body: toRoleBody(values) }),
    onSaved: (saved, savedForm) => {
      savedForm.reset(roleFormValues(saved));
      onSaved(saved);
    },
  });
  const permissionsError = useTranslatedMessage(form.formState.errors.permissions?.message);
  const isEditable = (permission: AdminPermission) => canWrite && canInAdmin(grant, permission);

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="space-y-6">
        <ContentBox title={t('roles.details')}>
          <FlashMessageRender byKey={roleFormFlashKey} className="mb-5" />
          <fieldset disabled={!canWrite} className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <FormField<RoleFormValues> name="name" label={t('roles.name')} autoComplete="off" />
            <FormTextareaField<RoleFormValues>
              name="description"
              label={t('roles.description_field')}
              rows={2}
            />
          </fieldset>
        </ContentBox>
        <ContentBox title={t('roles.permissions')}>
          <p id={hintId} className="mb-4 text-xs text-ink-400">
            {[t('roles.permissions_hint'), grant !== 'root' && canWrite && t('roles.not_held')]
              .filter(Boolean)
              .join(' ')}
          </p>
          <Controller
            control={form.control}
            name="permissions"
            render={({ field }) => (
              <PermissionGrid
                value={field.value}
                onChange={field.onChange}
                isEditable={isEditable}
                describedBy={hintId}
              />
            )}
          />
          {permissionsError && (
            <p role="alert" className="mt-2 text-xs text-red-400">
              {permissionsError}
            </p>
          )}
        </ContentBox>
        <div className="flex justify-end gap-3">
          <Link to={paths.adminSection('roles')} className={buttonClasses('secondary', 'md')}>
            {canWrite ? t('actions.cancel') : t('actions.back')}
          </Link>
          {canWrite && (
            <Button type="submit" isLoading={save.isPending}>
              {role ? t('roles.save') : t('roles.submit_create')}
            </Button>
          )}
        </div>
      </form>
    </FormProvider>
  );
}
