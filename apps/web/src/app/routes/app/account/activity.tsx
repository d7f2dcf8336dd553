import { useTranslation } from 'react-i18next';
import { PageContentBlock } from '@/components/ui/page-content-block';
import { accountActivityFlashKey } from '@/features/activity/components/activity-flash-keys';
import { ActivityLog } from '@/features/activity/components/activity-log';

const source = { kind: 'account' } as const;

/** /account/activity — what happened to the account: sign-ins, changes, invitations to servers. */
export function AccountActivityRoute() {
  const { t } = useTranslation('account');
  return (
    <PageContentBlock title={t('activity.title')} showFlashKey={accountActivityFlashKey}>
      <ActivityLog source={source} flashKey={accountActivityFlashKey} />
    </PageContentBlock>
  );
}
