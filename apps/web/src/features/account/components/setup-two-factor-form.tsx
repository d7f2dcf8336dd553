import {
  type EnableTwoFactorFormValues,
  enableTwoFactorFormSchema,
} from '@aerie/shared/account/account-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { FormField } from '@/components/ui/field';
import { SpinnerBlock } from '@/components/ui/spinner';
import { twoFactorSetupQueryOptions, useEnableTwoFactor } from '@/features/account/api/two-factor';
import { twoFactorFlashKey } from '@/features/account/components/account-flash-keys';
import { QrCode } from '@/features/account/components/qr-code';
import { flashActions } from '@/stores/flash-store';

/** The setup step: the QR code and secret of a fresh secret, then the first code and the account password. */
export function SetupTwoFactorForm({ onEnabled }: { onEnabled: (recoveryTokens: string[]) => void }) {
  const { t } = useTranslation('account');
  const setup = useQuery(twoFactorSetupQueryOptions());
  const enable = useEnableTwoFactor();
  const form = useForm<EnableTwoFactorFormValues>({
    resolver: zodResolver(enableTwoFactorFormSchema),
    defaultValues: { code: '', password: '' },
    mode: 'onTouched',
  });

  useEffect(() => {
    if (setup.error) flashActions().clearAndAddHttpError({ key: twoFactorFlashKey, error: setup.error });
  }, [setup.error]);

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(twoFactorFlashKey);
    try {
      onEnabled(await enable.mutateAsync(values));
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: twoFactorFlashKey, error });
    }
  });

  if (setup.isPending) return <SpinnerBlock />;
  // A failed load is explained by the flash above.
  if (!setup.data) return null;
  return (
    <>
      <p className="text-sm leading-relaxed text-ink-300">{t('two_factor.setup_help')}</p>
      <div className="mt-5 flex flex-col items-center gap-5 sm:flex-row sm:items-start">
        <QrCode value={setup.data.uri} alt={t('two_factor.qr_alt')} className="shrink-0" />
        <div className="min-w-0 self-stretch">
          <p className="mb-1.5 text-xs font-semibold uppercase tracking-wider text-ink-300">
            {t('two_factor.secret')}
          </p>
          <CopyOnClick text={setup.data.secret} className="font-mono text-sm text-ink-100">
            {/* A code to type into an app: the same in every language. */}
            <span translate="no">{setup.data.secret}</span>
          </CopyOnClick>
        </div>
      </div>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="mt-6 space-y-5">
          <FormField<EnableTwoFactorFormValues>
            name="code"
            label={t('two_factor.code')}
            description={t('two_factor.code_hint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
          />
          <FormField<EnableTwoFactorFormValues>
            name="password"
            type="password"
            label={t('two_factor.password')}
            autoComplete="current-password"
          />
          <div className="flex justify-end">
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('two_factor.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </>
  );
}
