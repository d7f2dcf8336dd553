import { useTranslation } from 'react-i18next';
import { backupsFlashKey } from '@/features/backups/components/backups-flash-keys';
import { BackupsPage } from '@/features/backups/components/backups-page';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/backups — the server's backups. */
export function BackupsRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.backups')} showFlashKey={backupsFlashKey}>
      <BackupsPage />
    </ServerContentBlock>
  );
}
