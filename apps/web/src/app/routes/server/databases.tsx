import { useTranslation } from 'react-i18next';
import { databasesFlashKey } from '@/features/databases/components/databases-flash-keys';
import { DatabasesPage } from '@/features/databases/components/databases-page';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/databases — the server's databases. */
export function DatabasesRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.databases')} showFlashKey={databasesFlashKey}>
      <DatabasesPage />
    </ServerContentBlock>
  );
}
