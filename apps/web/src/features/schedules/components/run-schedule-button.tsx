import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { type Schedule, useRunSchedule } from '@/features/schedules/api/schedules';
import { schedulesFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Run Now: the schedule shows Processing at once, and the button stays disabled while it is (spec §4). */
export function RunScheduleButton({ schedule }: { schedule: Schedule }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const run = useRunSchedule(server.id);

  const handleRun = () => {
    flashActions().clearFlashes(schedulesFlashKey);
    run.mutate(schedule.id, {
      onError: (error) => flashActions().clearAndAddHttpError({ key: schedulesFlashKey, error }),
    });
  };

  return (
    <Button variant="secondary" onClick={handleRun} disabled={schedule.isProcessing || run.isPending}>
      {t('schedules.detail.run_now')}
    </Button>
  );
}
