import { useTranslation } from 'react-i18next';
import { schedulesFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { SchedulesPage } from '@/features/schedules/components/schedules-page';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/schedules — the server's schedules. */
export function SchedulesRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.schedules')} showFlashKey={schedulesFlashKey}>
      <SchedulesPage />
    </ServerContentBlock>
  );
}
