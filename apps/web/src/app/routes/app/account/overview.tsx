import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ContentBox } from '@/components/ui/content-box';
import { MessageBox } from '@/components/ui/message-box';
import { PageContentBlock } from '@/components/ui/page-content-block';
import { ConfigureTwoFactor } from '@/features/account/components/configure-two-factor';
import { UpdateEmailForm } from '@/features/account/components/update-email-form';
import { UpdateLanguageForm } from '@/features/account/components/update-language-form';
import { UpdatePasswordForm } from '@/features/account/components/update-password-form';
import { SignInProvidersBox } from '@/features/oauth/components/sign-in-providers-box';
import { PasskeysBox } from '@/features/passkeys/components/passkeys-box';

export function AccountOverviewRoute() {
  const { t } = useTranslation('account');
  const state: unknown = useLocation().state;
  const twoFactorRedirect =
    typeof state === 'object' &&
    state !== null &&
    (state as { twoFactorRedirect?: unknown }).twoFactorRedirect === true;
  return (
    <PageContentBlock title={t('overview.title')} showFlashKey="account">
      {twoFactorRedirect && (
        <MessageBox type="error" title={t('two_factor_required.title')} className="mb-4">
          {t('two_factor_required.message')}
        </MessageBox>
      )}
      <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        <ContentBox title={t('password.title')}>
          <UpdatePasswordForm />
        </ContentBox>
        <ContentBox title={t('email.title')}>
          <UpdateEmailForm />
        </ContentBox>
        <ContentBox title={t('two_factor.title')} className="md:col-span-2 lg:col-span-1">
          <ConfigureTwoFactor />
        </ContentBox>
        <ContentBox title={t('language.title')}>
          <UpdateLanguageForm />
        </ContentBox>
        <ContentBox title={t('passkeys.title')} className="md:col-span-2">
          <PasskeysBox />
        </ContentBox>
        <SignInProvidersBox className="md:col-span-2 lg:col-span-3" />
      </div>
    </PageContentBlock>
  );
}
