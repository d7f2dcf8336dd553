import {
  type CreateApiKeyFormValues,
  createApiKeyFormSchema,
  splitAllowedIps,
} from '@aerie/shared/api-keys/api-keys-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { SpinnerOverlay } from '@/components/ui/spinner';
import { useCreateApiKey } from '@/features/api-keys/api/api-keys';
import { ApiKeyModal } from '@/features/api-keys/components/api-key-modal';
import { flashActions } from '@/stores/flash-store';

/** Errors of the API page show at the top of the page (spec §8 key `account`). */
const flashKey = 'account';

export function CreateApiKeyForm() {
  const { t } = useTranslation('account');
  const create = useCreateApiKey();
  const [apiKey, setApiKey] = useState<string | null>(null);
  const form = useForm<CreateApiKeyFormValues>({
    resolver: zodResolver(createApiKeyFormSchema),
    defaultValues: { description: '', allowedIps: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async ({ description, allowedIps }) => {
    flashActions().clearFlashes(flashKey);
    try {
      const created = await create.mutateAsync({ description, allowed_ips: splitAllowedIps(allowedIps) });
      form.reset();
      setApiKey(created.token);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  });

  return (
    <>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="relative space-y-5">
          <SpinnerOverlay visible={form.formState.isSubmitting} />
          <FormField<CreateApiKeyFormValues>
            name="description"
            label={t('api_keys.description')}
            description={t('api_keys.description_hint')}
            autoComplete="off"
          />
          <FormTextareaField<CreateApiKeyFormValues>
            name="allowedIps"
            label={t('api_keys.allowed_ips')}
            description={t('api_keys.allowed_ips_hint')}
            spellCheck={false}
            className="font-mono"
          />
          <div className="flex justify-end">
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('api_keys.create')}
            </Button>
          </div>
        </form>
      </FormProvider>
      <ApiKeyModal apiKey={apiKey} onDismissed={() => setApiKey(null)} />
    </>
  );
}
