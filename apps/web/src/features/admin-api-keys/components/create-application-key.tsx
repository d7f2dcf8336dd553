import {
  type AdminGrant,
  type AdminPermission,
  canInAdmin,
} from '@aerie/shared/admin-roles/admin-permissions';
import { splitAllowedIps } from '@aerie/shared/api-keys/api-keys-forms';
import {
  type ApplicationKeyFormValues,
  applicationKeyAccessChoices,
  applicationKeyFormSchema,
} from '@aerie/shared/api-keys/application-keys-forms';
import { type AdminResource, adminResources } from '@aerie/shared/api-keys/application-keys-wire';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { FormSelectField } from '@/components/admin/form-select-field';
import { Button, buttonClasses } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { SecretModal } from '@/components/ui/secret-modal';
import {
  type ApplicationKey,
  applicationKeyKeys,
  createApplicationKey,
} from '@/features/admin-api-keys/api/application-keys';
import { useAdminGrant } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';

const flashKey = 'admin:api-keys:new';

type AccessChoice = (typeof applicationKeyAccessChoices)[number];

/**
 * The levels a key may get on `resource`: within what its maker holds (the panel refuses more with 403). Read is
 * `<resource>.read`; read and write needs both, as the form offers no write without read.
 */
function allowedChoices(grant: AdminGrant | null, resource: AdminResource): AccessChoice[] {
  const read = canInAdmin(grant, `${resource}.read`);
  const write = canInAdmin(grant, `${resource}.write` as AdminPermission);
  return applicationKeyAccessChoices.filter(
    (level) => level === '0' || (level === '1' && read) || (level === '3' && read && write),
  );
}

const defaultValues: ApplicationKeyFormValues = {
  memo: '',
  allowedIps: '',
  access: Object.fromEntries(adminResources.map((resource) => [resource, '0'])) as Record<AdminResource, '0'>,
};

/** /admin/api/new: description, allowed IPs and one access level per resource; the key is shown once. */
export function CreateApplicationKey() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(null);
  const grant = useAdminGrant();
  const { form, submit } = useSaveForm({
    schema: applicationKeyFormSchema,
    defaultValues,
    flashKey,
    apiFields: { memo: 'memo', allowed_ips: 'allowedIps' },
    save: (values: ApplicationKeyFormValues) =>
      createApplicationKey({
        memo: values.memo,
        allowedIps: splitAllowedIps(values.allowedIps),
        access: Object.fromEntries(
          adminResources.map((resource) => [resource, Number(values.access[resource])]),
        ) as Record<AdminResource, number>,
      }),
    onSaved: (created) => {
      queryClient.setQueryData<ApplicationKey[]>(applicationKeyKeys.all, (list) =>
        list ? [...list, created.key] : list,
      );
      setToken(created.token);
    },
  });

  return (
    <AdminPage
      title={t('api_keys.new_title')}
      description={t('api_keys.new_description')}
      flashKey={flashKey}
    >
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <ContentBox title={t('api_keys.details')}>
            <div className="space-y-5">
              <FormField<ApplicationKeyFormValues>
                name="memo"
                label={t('api_keys.memo')}
                description={t('api_keys.memo_hint')}
                autoComplete="off"
              />
              <FormTextareaField<ApplicationKeyFormValues>
                name="allowedIps"
                label={t('api_keys.allowed_ips')}
                description={t('api_keys.allowed_ips_hint')}
                spellCheck={false}
                className="font-mono"
              />
            </div>
          </ContentBox>
          <ContentBox title={t('api_keys.permissions')}>
            {grant !== 'root' && <p className="mb-4 text-xs text-ink-400">{t('api_keys.role_hint')}</p>}
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              {adminResources.map((resource) => {
                const choices = allowedChoices(grant, resource);
                return (
                  <FormSelectField<ApplicationKeyFormValues>
                    key={resource}
                    name={`access.${resource}`}
                    label={t(`api_keys.resources.${resource}`)}
                    disabled={choices.length === 1}
                    options={choices.map((level) => ({
                      value: level,
                      label: t(`api_keys.access.${level}`),
                    }))}
                  />
                );
              })}
            </div>
          </ContentBox>
          <div className="flex justify-end gap-3 lg:col-span-2">
            <Link to="/admin/api" className={buttonClasses('secondary', 'md')}>
              {t('actions.cancel')}
            </Link>
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('api_keys.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
      <SecretModal
        secret={token}
        title={t('api_keys.created_title')}
        text={t('api_keys.created_text')}
        closeLabel={t('api_keys.close')}
        onDismissed={() => navigate('/admin/api')}
      />
    </AdminPage>
  );
}
