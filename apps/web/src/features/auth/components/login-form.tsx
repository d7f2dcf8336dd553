import type { LoginFormValues } from '@aerie/shared/auth/auth-forms';
import { type ReactNode, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { login } from '@/features/auth/api/auth';
import { AuthFormContainer } from '@/features/auth/components/auth-form-container';
import { AuthLink } from '@/features/auth/components/auth-link';
import { PasskeySignInButton } from '@/features/auth/components/passkey-sign-in-button';
import { useRecaptcha } from '@/features/auth/hooks/use-recaptcha';
import { afterSignIn, intendedFromSearch } from '@/features/auth/utils/intended-address';
import { signInWithPasskey } from '@/features/passkeys/api/passkeys';
import { browser } from '@/lib/browser';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { flashActions } from '@/stores/flash-store';

// The shared schema, with zod, loads at the first validation (lib/lazy-zod-resolver.ts).
const loginFormSchemaResolver = lazyZodResolver<LoginFormValues>(
  async () => (await import('@aerie/shared/auth/auth-forms')).loginFormSchema,
);

export function LoginForm({
  notice,
  providers,
}: {
  /** Shown above the fields (why a provider sign-in failed). */
  notice?: ReactNode;
  /** Other ways in, under the form (the identity providers' buttons). */
  providers?: ReactNode;
} = {}) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const intended = intendedFromSearch(search);
  const captcha = useRecaptcha();
  const [redirecting, setRedirecting] = useState(false);
  const form = useForm<LoginFormValues>({
    resolver: loginFormSchemaResolver,
    defaultValues: { username: '', password: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async ({ username, password }) => {
    const { clearFlashes, clearAndAddHttpError } = flashActions();
    clearFlashes();
    try {
      const token = await captcha.execute();
      const result = await login({ user: username, password, 'g-recaptcha-response': token });
      if (result.complete) {
        setRedirecting(true);
        // A full load, so the panel renders the shell with the signed-in user.
        browser.loadPage(afterSignIn(intended, result.intended));
        return;
      }
      navigate(paths.auth.checkpoint, { state: { token: result.confirmation_token, intended } });
    } catch (error) {
      captcha.reset();
      clearAndAddHttpError({ error });
    }
  });

  return (
    <AuthFormContainer title={t('login.title')}>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          {notice}
          <FormField<LoginFormValues>
            name="username"
            label={t('login.username')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
          />
          <FormField<LoginFormValues>
            name="password"
            type="password"
            label={t('login.password')}
            autoComplete="current-password"
          />
          <Button
            type="submit"
            size="lg"
            className="w-full"
            isLoading={form.formState.isSubmitting || redirecting}
          >
            {t('login.submit')}
          </Button>
          {captcha.enabled && <div ref={captcha.containerRef} />}
          <PasskeySignInButton signIn={signInWithPasskey} label={t('login.passkey')} intended={intended} />
          {providers}
          <p className="text-center">
            <AuthLink to={paths.auth.forgotPassword}>{t('login.forgot_password')}</AuthLink>
          </p>
        </form>
      </FormProvider>
    </AuthFormContainer>
  );
}
