import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import {
  type Schedule,
  type ScheduleTask,
  scheduleKeys,
  scheduleQueryOptions,
  useDeleteTask,
} from '@/features/schedules/api/schedules';
import { DeleteScheduleButton } from '@/features/schedules/components/delete-schedule-button';
import { RunScheduleButton } from '@/features/schedules/components/run-schedule-button';
import { RunTime } from '@/features/schedules/components/run-time';
import { ScheduleModal } from '@/features/schedules/components/schedule-modal';
import { ScheduleStatusPill } from '@/features/schedules/components/schedule-status-pill';
import { schedulesFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { TaskModal } from '@/features/schedules/components/task-modal';
import { TaskRow } from '@/features/schedules/components/task-row';
import { describeCron } from '@/features/schedules/utils/describe-cron';
import { Can } from '@/features/servers/components/can';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Which modal is open: the schedule's, or a task's (none: a new task), and whether it is fading out. */
type ModalState = { kind: 'schedule'; open: boolean } | { kind: 'task'; task?: ScheduleTask; open: boolean };

/** The five cron fields as cards, with the expression in words under them. */
function CronCards({ schedule }: { schedule: Schedule }) {
  const { t } = useTranslation('server');
  const { cron } = schedule;
  const cards = [
    [t('schedules.cron.minute'), cron.minute],
    [t('schedules.cron.hour'), cron.hour],
    [t('schedules.cron.day_of_month'), cron.dayOfMonth],
    [t('schedules.cron.month'), cron.month],
    [t('schedules.cron.day_of_week'), cron.dayOfWeek],
  ] as const;
  const description = describeCron(cron);
  return (
    <section aria-label={t('schedules.cron.label')} className="my-4">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        {cards.map(([name, value]) => (
          <div key={name} className="rounded-lg bg-ink-800 p-3">
            <dt className="text-sm text-ink-300">{name}</dt>
            <dd className="mt-1 font-mono text-xl font-medium text-ink-50">{value}</dd>
          </div>
        ))}
      </dl>
      {description && <p className="mt-2 text-sm text-ink-300">{description}</p>}
    </section>
  );
}

/**
 * A schedule's page (spec §2 "Schedules"): its name and state, last and next run, Edit and New Task
 * (schedule.update), the cron cards, the tasks in sequence, Delete (schedule.delete) and Run Now (schedule.update,
 * with tasks). It asks again while the schedule is processing. Errors flash under `schedules`.
 */
export function SchedulePage({ scheduleId }: { scheduleId: number }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery({
    ...scheduleQueryOptions(server.id, scheduleId),
    // Opened from the list, the row's copy shows at once while the page asks for the schedule.
    placeholderData: () =>
      queryClient
        .getQueryData<Schedule[]>(scheduleKeys.list(server.id))
        ?.find((schedule) => schedule.id === scheduleId),
  });
  const removeTask = useDeleteTask(server.id, scheduleId);
  const [modal, setModal] = useState<ModalState | null>(null);
  const [deleting, setDeleting] = useState<ScheduleTask | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (query.error) flashActions().clearAndAddHttpError({ key: schedulesFlashKey, error: query.error });
  }, [query.error]);

  const listPath = paths.serverPage(server.id, 'schedules');
  const schedule = query.data;
  if (!schedule) {
    if (!query.isError) return <SpinnerBlock />;
    return (
      <Link
        to={listPath}
        className="inline-flex items-center gap-2 text-sm text-brand-300 hover:text-brand-200"
      >
        <ArrowLeftIcon className="size-4" />
        {t('schedules.detail.back')}
      </Link>
    );
  }

  const handleAskDeleteTask = (task: ScheduleTask) => {
    setDeleting(task);
    setConfirming(true);
  };

  const handleConfirmDeleteTask = async () => {
    if (!deleting) return;
    flashActions().clearFlashes(schedulesFlashKey);
    try {
      await removeTask.mutateAsync(deleting.id);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: schedulesFlashKey, error });
    }
    setConfirming(false);
  };

  return (
    <>
      <div className="rounded-xl border border-ink-800 bg-ink-900/70">
        <div className="flex flex-wrap items-center gap-4 border-b border-ink-800 px-5 py-4">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-3">
              <h2 className="break-words text-xl font-semibold text-ink-50">{schedule.name}</h2>
              <ScheduleStatusPill schedule={schedule} />
            </div>
            <p className="mt-1 text-sm text-ink-300">
              {t('schedules.last_run')}:{' '}
              <RunTime at={schedule.lastRunAt} fallback={t('schedules.not_planned')} />
              <span aria-hidden="true" className="mx-3 text-ink-600">
                |
              </span>
              {t('schedules.next_run')}:{' '}
              <RunTime at={schedule.nextRunAt} fallback={t('schedules.not_planned')} />
            </p>
          </div>
          <Can action="schedule.update">
            <div className="flex gap-3">
              <Button variant="ghost" onClick={() => setModal({ kind: 'schedule', open: true })}>
                {t('schedules.detail.edit')}
              </Button>
              <Button onClick={() => setModal({ kind: 'task', open: true })}>
                {t('schedules.detail.new_task')}
              </Button>
            </div>
          </Can>
        </div>
        <div className="px-5">
          <CronCards schedule={schedule} />
        </div>
        {schedule.tasks.length === 0 ? (
          <p className="border-t border-ink-800 px-5 py-8 text-center text-sm text-ink-400">
            {t('schedules.detail.no_tasks')}
          </p>
        ) : (
          <ol aria-label={t('schedules.detail.tasks_label')} className="border-t border-ink-800">
            {schedule.tasks.map((task) => (
              <TaskRow
                key={task.id}
                task={task}
                onEdit={(edited) => setModal({ kind: 'task', task: edited, open: true })}
                onDelete={handleAskDeleteTask}
              />
            ))}
          </ol>
        )}
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Can action="schedule.delete">
          <DeleteScheduleButton scheduleId={schedule.id} onDeleted={() => navigate(listPath)} />
        </Can>
        {schedule.tasks.length > 0 && (
          <Can action="schedule.update">
            <RunScheduleButton schedule={schedule} />
          </Can>
        )}
      </div>
      {modal?.kind === 'schedule' && (
        <ScheduleModal
          visible={modal.open}
          schedule={schedule}
          onClose={() => setModal({ ...modal, open: false })}
          onDismissed={() => setModal(null)}
        />
      )}
      {modal?.kind === 'task' && (
        <TaskModal
          visible={modal.open}
          schedule={schedule}
          task={modal.task}
          onClose={() => setModal({ ...modal, open: false })}
          onDismissed={() => setModal(null)}
        />
      )}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('schedules.task_delete.title')}
        confirmLabel={t('schedules.task_delete.confirm')}
        cancelLabel={t('schedules.task_delete.cancel')}
        onConfirm={() => void handleConfirmDeleteTask()}
        isLoading={removeTask.isPending}
      >
        {t('schedules.task_delete.message')}
      </ConfirmationModal>
    </>
  );
}
