import { type UpdatePasswordFormValues, updatePasswordFormSchema } from '@aerie/shared/account/account-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { paths } from '@/config/paths';
import { useUpdatePassword } from '@/features/account/api/account';
import { browser } from '@/lib/browser';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'account:password';

export function UpdatePasswordForm() {
  const { t } = useTranslation('account');
  const update = useUpdatePassword();
  const [redirecting, setRedirecting] = useState(false);
  const form = useForm<UpdatePasswordFormValues>({
    resolver: zodResolver(updatePasswordFormSchema),
    defaultValues: { currentPassword: '', password: '', passwordConfirmation: '' },
    mode: 'onTouched',
  });
  const { isSubmitting, isValid } = form.formState;

  // A new password typed after the confirmation re-checks the confirmation, not only the field typed in.
  useEffect(() => {
    const subscription = form.watch((_, { name }) => {
      if (name === 'password' && form.getFieldState('passwordConfirmation').isTouched) {
        void form.trigger('passwordConfirmation');
      }
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const handleSubmit = form.handleSubmit(async ({ currentPassword, password, passwordConfirmation }) => {
    flashActions().clearFlashes(flashKey);
    try {
      await update.mutateAsync({
        current_password: currentPassword,
        password,
        password_confirmation: passwordConfirmation,
      });
      setRedirecting(true);
      // The panel ended the account's other sessions; signing in again starts from a fresh shell.
      browser.loadPage(paths.auth.login);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  });

  return (
    <FormProvider {...form}>
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <form onSubmit={handleSubmit} noValidate className="space-y-5">
        <FormField<UpdatePasswordFormValues>
          name="currentPassword"
          type="password"
          label={t('password.current')}
          autoComplete="current-password"
        />
        <FormField<UpdatePasswordFormValues>
          name="password"
          type="password"
          label={t('password.new')}
          description={t('password.new_hint')}
          autoComplete="new-password"
        />
        <FormField<UpdatePasswordFormValues>
          name="passwordConfirmation"
          type="password"
          label={t('password.confirm')}
          autoComplete="new-password"
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={!isValid} isLoading={isSubmitting || redirecting}>
            {t('password.submit')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
