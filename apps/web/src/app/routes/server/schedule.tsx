import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { NotFoundRoute } from '@/app/routes/app/not-found';
import { SchedulePage } from '@/features/schedules/components/schedule-page';
import { schedulesFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/schedules/:scheduleId — one schedule, its tasks and its controls. Only a number is a schedule. */
export function ScheduleRoute() {
  const { t } = useTranslation('server');
  const { scheduleId = '' } = useParams();
  if (!/^[1-9]\d*$/.test(scheduleId)) return <NotFoundRoute />;
  return (
    <ServerContentBlock title={t('title.schedules')} showFlashKey={schedulesFlashKey}>
      <SchedulePage key={scheduleId} scheduleId={Number(scheduleId)} />
    </ServerContentBlock>
  );
}
