import { useTranslation } from 'react-i18next';
import { PageContentBlock } from '@/components/ui/page-content-block';

export function AccountApiRoute() {
  const { t } = useTranslation('account');
  return <PageContentBlock title={t('api.title')} showFlashKey="account" />;
}
