import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { PageContentBlock } from '@/components/ui/page-content-block';
import { ApiKeysList } from '@/features/api-keys/components/api-keys-list';
import { CreateApiKeyForm } from '@/features/api-keys/components/create-api-key-form';

export function AccountApiRoute() {
  const { t } = useTranslation('account');
  return (
    <PageContentBlock title={t('api.title')} showFlashKey="account">
      <div className="grid gap-6 md:grid-cols-5">
        <ContentBox title={t('api_keys.create_title')} className="md:col-span-2">
          <CreateApiKeyForm />
        </ContentBox>
        <ContentBox title={t('api_keys.list_title')} className="md:col-span-3">
          <ApiKeysList />
        </ContentBox>
      </div>
    </PageContentBlock>
  );
}
