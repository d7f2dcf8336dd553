import { useTranslation } from 'react-i18next';
import { FormSelectField } from '@/components/admin/form-select-field';
import { FormSwitch } from '@/components/admin/form-switch';
import { FormField } from '@/components/ui/field';
import type { UserFormValues } from '@/features/admin-users/api/user-form';
import { languageOptions } from '@/lib/language-options';

interface UserFormFieldsProps {
  /** Create: a blank password mails a set-password link. Edit: a blank password keeps the current one. */
  mode: 'create' | 'edit';
}

/** The fields of a user, shared by the create modal and the user page (inside their FormProvider). */
export function UserFormFields({ mode }: UserFormFieldsProps) {
  const { t } = useTranslation('admin');
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <FormField<UserFormValues>
        name="email"
        type="email"
        label={t('users.fields.email')}
        autoComplete="off"
      />
      <FormField<UserFormValues> name="username" label={t('users.fields.username')} autoComplete="off" />
      <FormField<UserFormValues> name="firstName" label={t('users.fields.first_name')} autoComplete="off" />
      <FormField<UserFormValues> name="lastName" label={t('users.fields.last_name')} autoComplete="off" />
      <FormField<UserFormValues>
        name="password"
        type="password"
        autoComplete="new-password"
        label={t('users.fields.password')}
        description={mode === 'create' ? t('users.password_hint_create') : t('users.password_hint_edit')}
      />
      {mode === 'edit' ? (
        <FormSelectField<UserFormValues>
          name="language"
          label={t('users.fields.language')}
          options={languageOptions}
        />
      ) : (
        <div className="hidden sm:block" />
      )}
      <FormSwitch<UserFormValues>
        name="rootAdmin"
        label={t('users.fields.root_admin')}
        description={t('users.root_admin_hint')}
        className="sm:col-span-2"
      />
    </div>
  );
}
