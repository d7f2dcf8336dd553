import { useTranslation } from 'react-i18next';
import { ServerMountsBox } from '@/features/mounts/components/server-mounts-box';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';
import { dockerImageFlashKey } from '@/features/startup/components/docker-image-box';
import { StartupSettings } from '@/features/startup/components/startup-settings';

/** /server/:id/startup — the startup command, the Docker image and the variables; then the server's mounts. */
export function StartupRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.startup')} showFlashKey={dockerImageFlashKey}>
      <StartupSettings />
      <ServerMountsBox flashKey={dockerImageFlashKey} />
    </ServerContentBlock>
  );
}
