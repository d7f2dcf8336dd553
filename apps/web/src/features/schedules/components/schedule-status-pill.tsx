import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { type Schedule, scheduleStatus } from '@/features/schedules/api/schedules';

const styles = {
  processing: 'bg-ink-600 text-white',
  active: 'bg-emerald-600 text-emerald-50',
  inactive: 'bg-ink-700 text-ink-300',
} as const;

/** Processing, Active or Inactive (spec §4). */
export function ScheduleStatusPill({
  schedule,
  className,
}: {
  schedule: Pick<Schedule, 'isActive' | 'isProcessing'>;
  className?: string;
}) {
  const { t } = useTranslation('server');
  const status = scheduleStatus(schedule);
  return (
    <span
      data-status={status}
      className={clsx(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wider',
        styles[status],
        className,
      )}
    >
      {status === 'processing' && <Spinner size="small" />}
      {t(`schedules.status.${status}`)}
    </span>
  );
}
