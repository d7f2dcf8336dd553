import { useTranslation } from 'react-i18next';
import { networkFlashKey } from '@/features/network/components/network-flash-keys';
import { NetworkPage } from '@/features/network/components/network-page';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/network — the server's allocations. */
export function NetworkRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.network')} showFlashKey={networkFlashKey}>
      <NetworkPage />
    </ServerContentBlock>
  );
}
