import type { ResetPasswordFormValues } from '@aerie/shared/auth/auth-forms';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field, FormField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { performPasswordReset } from '@/features/auth/api/auth';
import { AuthFormContainer } from '@/features/auth/components/auth-form-container';
import { AuthLink } from '@/features/auth/components/auth-link';
import { errorToMessage } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { flashActions } from '@/stores/flash-store';

interface ResetPasswordFormProps {
  token: string;
  /** From the mailed link's query string; shown, not editable. */
  email: string;
}

// The shared schema, with zod, loads at the first validation (lib/lazy-zod-resolver.ts).
const resetPasswordFormSchemaResolver = lazyZodResolver<ResetPasswordFormValues>(
  async () => (await import('@aerie/shared/auth/auth-forms')).resetPasswordFormSchema,
);

export function ResetPasswordForm({ token, email }: ResetPasswordFormProps) {
  const { t } = useTranslation(['auth', 'strings']);
  const [redirecting, setRedirecting] = useState(false);
  const form = useForm<ResetPasswordFormValues>({
    resolver: resetPasswordFormSchemaResolver,
    defaultValues: { password: '', passwordConfirmation: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async ({ password, passwordConfirmation }) => {
    const { clearFlashes, addFlash } = flashActions();
    clearFlashes();
    try {
      await performPasswordReset({ email, token, password, password_confirmation: passwordConfirmation });
      setRedirecting(true);
      // The panel signed the user in (or, with two-factor on, sends the load of / on to the login page).
      browser.loadPage(paths.home);
    } catch (error) {
      addFlash({ type: 'error', title: t('strings:flash.error'), message: errorToMessage(error) });
    }
  });

  return (
    <AuthFormContainer title={t('reset_password.title')}>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          <Field label={t('reset_password.email')} type="email" value={email} disabled readOnly />
          <FormField<ResetPasswordFormValues>
            name="password"
            type="password"
            label={t('reset_password.password')}
            description={t('reset_password.password_hint')}
            autoComplete="new-password"
          />
          <FormField<ResetPasswordFormValues>
            name="passwordConfirmation"
            type="password"
            label={t('reset_password.password_confirmation')}
            autoComplete="new-password"
          />
          <Button
            type="submit"
            size="lg"
            className="w-full"
            isLoading={form.formState.isSubmitting || redirecting}
          >
            {t('reset_password.submit')}
          </Button>
          <p className="text-center">
            <AuthLink to={paths.auth.login}>{t('reset_password.return_to_login')}</AuthLink>
          </p>
        </form>
      </FormProvider>
    </AuthFormContainer>
  );
}
