import type { ForgotPasswordFormValues } from '@aerie/shared/auth/auth-forms';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { requestPasswordResetEmail } from '@/features/auth/api/auth';
import { AuthFormContainer } from '@/features/auth/components/auth-form-container';
import { AuthLink } from '@/features/auth/components/auth-link';
import { useRecaptcha } from '@/features/auth/hooks/use-recaptcha';
import { errorToMessage } from '@/lib/api-client';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { flashActions } from '@/stores/flash-store';

// The shared schema, with zod, loads at the first validation (lib/lazy-zod-resolver.ts).
const forgotPasswordFormSchemaResolver = lazyZodResolver<ForgotPasswordFormValues>(
  async () => (await import('@aerie/shared/auth/auth-forms')).forgotPasswordFormSchema,
);

export function ForgotPasswordForm() {
  const { t } = useTranslation(['auth', 'strings']);
  const captcha = useRecaptcha();
  const form = useForm<ForgotPasswordFormValues>({
    resolver: forgotPasswordFormSchemaResolver,
    defaultValues: { email: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async ({ email }) => {
    const { clearFlashes, addFlash } = flashActions();
    clearFlashes();
    try {
      const token = await captcha.execute();
      const status = await requestPasswordResetEmail({ email, 'g-recaptcha-response': token });
      form.reset();
      // A token is good for one request; the next one needs a fresh challenge.
      captcha.reset();
      addFlash({ type: 'success', title: t('strings:flash.success'), message: status });
    } catch (error) {
      captcha.reset();
      addFlash({ type: 'error', title: t('strings:flash.error'), message: errorToMessage(error) });
    }
  });

  return (
    <AuthFormContainer title={t('forgot_password.title')}>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          <FormField<ForgotPasswordFormValues>
            name="email"
            type="email"
            label={t('forgot_password.email')}
            description={t('forgot_password.email_hint')}
            autoComplete="email"
          />
          <Button type="submit" size="lg" className="w-full" isLoading={form.formState.isSubmitting}>
            {t('forgot_password.submit')}
          </Button>
          {captcha.enabled && <div ref={captcha.containerRef} />}
          <p className="text-center">
            <AuthLink to={paths.auth.login}>{t('forgot_password.return_to_login')}</AuthLink>
          </p>
        </form>
      </FormProvider>
    </AuthFormContainer>
  );
}
