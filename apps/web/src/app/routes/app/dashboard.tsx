import { useTranslation } from 'react-i18next';
import { ServerStackIcon } from '@/components/ui/icons';
import { PageContentBlock } from '@/components/ui/page-content-block';

export function DashboardRoute() {
  const { t } = useTranslation('dashboard');
  return (
    <PageContentBlock title={t('title')} showFlashKey="dashboard">
      <div className="flex flex-col items-center rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center">
        <ServerStackIcon className="mb-4 size-10 text-ink-600" />
        <p className="text-sm text-ink-300">{t('empty')}</p>
      </div>
    </PageContentBlock>
  );
}
