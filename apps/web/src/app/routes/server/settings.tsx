import { useTranslation } from 'react-i18next';
import { settingsFlashKey } from '@/features/server-settings/components/server-settings-flash-keys';
import { SettingsPage } from '@/features/server-settings/components/settings-page';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/settings — SFTP details, debug information, rename and reinstall. */
export function SettingsRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.settings')} showFlashKey={settingsFlashKey}>
      <SettingsPage />
    </ServerContentBlock>
  );
}
