import { type CreateSshKeyFormValues, createSshKeyFormSchema } from '@aerie/shared/ssh-keys/ssh-keys-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { SpinnerOverlay } from '@/components/ui/spinner';
import { useCreateSshKey } from '@/features/ssh-keys/api/ssh-keys';
import { sshKeysFlashKey } from '@/features/ssh-keys/components/ssh-keys-flash-keys';
import { flashActions } from '@/stores/flash-store';

/** Adds a public key to the account; the panel's refusals (not a key, DSA, short RSA, a duplicate) flash on the page. */
export function CreateSshKeyForm() {
  const { t } = useTranslation('account');
  const create = useCreateSshKey();
  const form = useForm<CreateSshKeyFormValues>({
    resolver: zodResolver(createSshKeyFormSchema),
    defaultValues: { name: '', publicKey: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async ({ name, publicKey }) => {
    flashActions().clearFlashes(sshKeysFlashKey);
    try {
      await create.mutateAsync({ name, public_key: publicKey });
      form.reset();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: sshKeysFlashKey, error });
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={handleSubmit} noValidate className="relative space-y-5">
        <SpinnerOverlay visible={form.formState.isSubmitting} />
        <FormField<CreateSshKeyFormValues> name="name" label={t('ssh_keys.name')} autoComplete="off" />
        <FormTextareaField<CreateSshKeyFormValues>
          name="publicKey"
          label={t('ssh_keys.public_key')}
          description={t('ssh_keys.public_key_hint')}
          rows={6}
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {t('ssh_keys.save')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
