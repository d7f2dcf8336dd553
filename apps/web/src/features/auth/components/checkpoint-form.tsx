import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { loginCheckpoint } from '@/features/auth/api/auth';
import { AuthFormContainer } from '@/features/auth/components/auth-form-container';
import { AuthLink } from '@/features/auth/components/auth-link';
import { PasskeySignInButton } from '@/features/auth/components/passkey-sign-in-button';
import { afterSignIn, loginPathFor } from '@/features/auth/utils/intended-address';
import { checkpointWithPasskey } from '@/features/passkeys/api/passkeys';
import { browser } from '@/lib/browser';
import { flashActions } from '@/stores/flash-store';

interface CheckpointValues {
  code: string;
  recoveryCode: string;
}

/** Second sign-in step for accounts with two-factor on: a code from the device, or a recovery code. */
export function CheckpointForm({
  confirmationToken,
  intended = null,
}: {
  confirmationToken: string;
  /** Where the guest was going before the login page (already checked to be a local path). */
  intended?: string | null;
}) {
  const { t } = useTranslation('auth');
  const [isMissingDevice, setIsMissingDevice] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const form = useForm<CheckpointValues>({ defaultValues: { code: '', recoveryCode: '' } });

  const handleSubmit = form.handleSubmit(async ({ code, recoveryCode }) => {
    const { clearFlashes, clearAndAddHttpError } = flashActions();
    clearFlashes();
    try {
      const result = await loginCheckpoint(
        confirmationToken,
        isMissingDevice
          ? { recoveryToken: recoveryCode.trim() }
          : { authenticationCode: code.replace(/\s/g, '') },
      );
      setRedirecting(true);
      browser.loadPage(afterSignIn(intended, result.intended));
    } catch (error) {
      clearAndAddHttpError({ error });
    }
  });

  return (
    <AuthFormContainer title={t('checkpoint.title')}>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          {isMissingDevice ? (
            <FormField<CheckpointValues>
              key="recoveryCode"
              name="recoveryCode"
              label={t('checkpoint.recovery_code')}
              description={t('checkpoint.recovery_code_hint')}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
            />
          ) : (
            <FormField<CheckpointValues>
              key="code"
              name="code"
              label={t('checkpoint.code')}
              description={t('checkpoint.code_hint')}
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
            />
          )}
          <Button
            type="submit"
            size="lg"
            className="w-full"
            isLoading={form.formState.isSubmitting || redirecting}
          >
            {t('checkpoint.submit')}
          </Button>
          <PasskeySignInButton
            signIn={() => checkpointWithPasskey(confirmationToken)}
            label={t('checkpoint.passkey')}
            intended={intended}
          />
          <div className="flex flex-col items-center gap-3 text-center">
            <button
              type="button"
              onClick={() => setIsMissingDevice((missing) => !missing)}
              className="text-xs font-medium uppercase tracking-wider text-brand-300 transition-colors hover:text-brand-400"
            >
              {isMissingDevice ? t('checkpoint.have_device') : t('checkpoint.lost_device')}
            </button>
            <AuthLink to={loginPathFor(intended)}>{t('checkpoint.return_to_login')}</AuthLink>
          </div>
        </form>
      </FormProvider>
    </AuthFormContainer>
  );
}
