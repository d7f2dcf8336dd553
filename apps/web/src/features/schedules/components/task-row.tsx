import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { PencilIcon, TrashIcon } from '@/components/ui/icons';
import type { ScheduleTask } from '@/features/schedules/api/schedules';
import { Can } from '@/features/servers/components/can';

interface TaskRowProps {
  task: ScheduleTask;
  onEdit: (task: ScheduleTask) => void;
  onDelete: (task: ScheduleTask) => void;
}

const iconButton =
  'rounded-md p-2 text-ink-400 transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50';

/**
 * A task in its place in the sequence: what it does (Send Command, Send Power Action, Create Backup) and with
 * what, whether the chain goes on when it fails, how long it waits first, and Edit and Delete (schedule.update).
 */
export function TaskRow({ task, onEdit, onDelete }: TaskRowProps) {
  const { t } = useTranslation('server');
  const action = t(`schedules.task.actions.${task.action}`);
  const sequence = task.sequenceId;
  return (
    <li
      aria-label={t('schedules.task.label', { sequence, action })}
      className="flex flex-wrap items-center gap-4 border-b border-ink-800 px-5 py-4 last:border-b-0 sm:flex-nowrap"
    >
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-ink-800 text-xs font-semibold text-ink-200"
      >
        {sequence}
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium uppercase tracking-wide text-ink-100">{action}</p>
        {task.payload && (
          <div className="mt-2">
            {task.action === 'backup' && (
              <p className="mb-1 text-xs uppercase text-ink-400">{t('schedules.task.ignoring')}</p>
            )}
            <code className="inline-block max-w-full whitespace-pre-wrap break-all rounded bg-ink-950 px-2 py-1 font-mono text-sm text-ink-100">
              {task.payload}
            </code>
          </div>
        )}
      </div>
      <div className="flex w-full items-center gap-3 sm:w-auto">
        {task.continueOnFailure && (
          <span className="rounded-full bg-amber-500/90 px-2.5 py-0.5 text-xs font-semibold text-amber-950">
            {t('schedules.task.continues_on_failure')}
          </span>
        )}
        {task.timeOffset > 0 && (
          <span
            title={t('schedules.task.offset_hint', { seconds: task.timeOffset })}
            className="rounded-full bg-ink-700 px-2.5 py-0.5 text-xs font-semibold text-ink-100"
          >
            {t('schedules.task.offset', { seconds: task.timeOffset })}
          </span>
        )}
        <Can action="schedule.update">
          <div className="ms-auto flex items-center gap-1 sm:ms-0">
            <button
              type="button"
              aria-label={t('schedules.task.edit', { sequence })}
              title={t('schedules.task.edit', { sequence })}
              onClick={() => onEdit(task)}
              className={clsx(iconButton, 'hover:bg-ink-800 hover:text-ink-50')}
            >
              <PencilIcon className="size-5" />
            </button>
            <button
              type="button"
              aria-label={t('schedules.task.delete', { sequence })}
              title={t('schedules.task.delete', { sequence })}
              onClick={() => onDelete(task)}
              className={clsx(iconButton, 'hover:bg-red-500/10 hover:text-red-400')}
            >
              <TrashIcon className="size-5" />
            </button>
          </div>
        </Can>
      </div>
    </li>
  );
}
