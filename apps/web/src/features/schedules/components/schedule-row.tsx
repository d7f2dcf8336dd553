import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { Schedule } from '@/features/schedules/api/schedules';
import { RunTime } from '@/features/schedules/components/run-time';
import { ScheduleCronRow } from '@/features/schedules/components/schedule-cron-row';
import { ScheduleStatusPill } from '@/features/schedules/components/schedule-status-pill';

/** A schedule in the list: its name, last and next run, cron fields and state; the whole row opens it. */
export function ScheduleRow({ serverId, schedule }: { serverId: string; schedule: Schedule }) {
  const { t } = useTranslation('server');
  return (
    <li aria-label={schedule.name}>
      <Link
        to={paths.serverPage(serverId, `schedules/${schedule.id}`)}
        className="flex flex-wrap items-center gap-4 rounded-xl border border-ink-800 bg-ink-900/70 px-5 py-4 transition-colors hover:border-ink-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 md:flex-nowrap"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-ink-50">{schedule.name}</p>
          <p className="mt-1 text-xs text-ink-400">
            {t('schedules.last_run')}: <RunTime at={schedule.lastRunAt} fallback={t('schedules.never')} />
            <span aria-hidden="true" className="mx-2 text-ink-600">
              |
            </span>
            {t('schedules.next_run')}:{' '}
            <RunTime at={schedule.nextRunAt} fallback={t('schedules.not_planned')} />
          </p>
        </div>
        <ScheduleCronRow cron={schedule.cron} className="w-full justify-between sm:w-auto" />
        <ScheduleStatusPill schedule={schedule} className="sm:w-28 sm:justify-center" />
      </Link>
    </li>
  );
}
