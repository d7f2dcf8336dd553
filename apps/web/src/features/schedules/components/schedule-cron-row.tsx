import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import type { ScheduleCron } from '@/features/schedules/api/schedules';

/** The five cron fields in a row, each over its name, as a schedule's list row shows them. */
export function ScheduleCronRow({ cron, className }: { cron: ScheduleCron; className?: string }) {
  const { t } = useTranslation('server');
  const parts = [
    [cron.minute, t('schedules.cron.minute')],
    [cron.hour, t('schedules.cron.hour')],
    [cron.dayOfMonth, t('schedules.cron.day_of_month')],
    [cron.month, t('schedules.cron.month')],
    [cron.dayOfWeek, t('schedules.cron.day_of_week')],
  ] as const;
  return (
    <dl className={clsx('flex gap-4', className)}>
      {parts.map(([value, name]) => (
        <div key={name} className="flex min-w-12 flex-col-reverse text-center">
          <dt className="text-[10px] uppercase tracking-wider text-ink-400">{name}</dt>
          <dd className="font-mono text-sm font-medium text-ink-50">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
