import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { DetailRow } from '@/features/server-settings/components/detail-row';
import { useServer } from '@/features/servers/hooks/use-server';

/** The node and the server's UUID, for support requests. */
export function DebugInformation() {
  const { t } = useTranslation('server');
  const server = useServer();
  return (
    <ContentBox title={t('settings.debug.title')}>
      <dl className="divide-y divide-ink-800">
        <DetailRow label={t('settings.debug.node')}>{server.node}</DetailRow>
        <DetailRow label={t('settings.debug.server_id')}>
          <CopyOnClick text={server.uuid}>{server.uuid}</CopyOnClick>
        </DetailRow>
      </dl>
    </ContentBox>
  );
}
