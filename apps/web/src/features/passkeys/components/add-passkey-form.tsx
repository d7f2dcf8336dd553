import { type AddPasskeyFormValues, addPasskeyFormSchema } from '@aerie/shared/passkeys/passkeys-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { flashCeremonyError } from '@/features/passkeys/api/passkey-ceremony-error';
import { useRegisterPasskey } from '@/features/passkeys/api/passkeys';
import { passkeysFlashKey } from '@/features/passkeys/components/passkeys-flash-key';
import { flashActions } from '@/stores/flash-store';

/** Names a new passkey and confirms the password; the browser then asks the user's device to make it. */
export function AddPasskeyForm() {
  const { t } = useTranslation('account');
  const { t: ts } = useTranslation('strings');
  const register = useRegisterPasskey();
  const form = useForm<AddPasskeyFormValues>({
    resolver: zodResolver(addPasskeyFormSchema),
    defaultValues: { name: '', password: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(passkeysFlashKey);
    try {
      await register.mutateAsync(values);
      form.reset();
      flashActions().addFlash({ key: passkeysFlashKey, type: 'success', message: t('passkeys.added_flash') });
    } catch (error) {
      form.setValue('password', '');
      flashCeremonyError(ts, error, passkeysFlashKey);
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={handleSubmit} noValidate className="space-y-4 border-t border-ink-800 pt-5">
        <FormField<AddPasskeyFormValues>
          name="name"
          label={t('passkeys.name')}
          description={t('passkeys.name_hint')}
          autoComplete="off"
        />
        <FormField<AddPasskeyFormValues>
          name="password"
          type="password"
          label={t('passkeys.password')}
          autoComplete="current-password"
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {t('passkeys.add')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
