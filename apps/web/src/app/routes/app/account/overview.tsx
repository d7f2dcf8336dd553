import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { MessageBox } from '@/components/ui/message-box';
import { PageContentBlock } from '@/components/ui/page-content-block';

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
    </PageContentBlock>
  );
}
