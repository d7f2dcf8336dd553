import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { serverActivityFlashKey } from '@/features/activity/components/activity-flash-keys';
import { ActivityLog } from '@/features/activity/components/activity-log';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';
import { useServer } from '@/features/servers/hooks/use-server';

/** /server/:id/activity — who did what on the server (activity.read). */
export function ActivityRoute() {
  const { t } = useTranslation('server');
  const server = useServer();
  const source = useMemo(() => ({ kind: 'server', serverId: server.id }) as const, [server.id]);
  return (
    <ServerContentBlock title={t('title.activity')} showFlashKey={serverActivityFlashKey}>
      <ActivityLog source={source} flashKey={serverActivityFlashKey} />
    </ServerContentBlock>
  );
}
