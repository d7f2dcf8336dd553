import { useTranslation } from 'react-i18next';
import { MessageBox } from '@/components/ui/message-box';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';
import { ServerInfoCard } from '@/features/servers/components/server-info-card';
import { useServer } from '@/features/servers/hooks/use-server';

/** The bare server page. Root admins reach it in a conflict state too, hence the notices. */
export function ConsoleRoute() {
  const { t } = useTranslation('server');
  const server = useServer();
  const notice = server.isInstalling
    ? t('console.installing_notice')
    : server.isTransferring
      ? t('console.transferring_notice')
      : null;
  return (
    <ServerContentBlock title={t('title.console')}>
      {notice && (
        <MessageBox type="warning" className="mb-4">
          {notice}
        </MessageBox>
      )}
      <div className="grid gap-4 lg:grid-cols-3">
        <ServerInfoCard />
      </div>
    </ServerContentBlock>
  );
}
