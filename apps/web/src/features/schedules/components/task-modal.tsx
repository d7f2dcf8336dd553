import { powerPayloads, taskActions } from '@aerie/shared/schedules/schedules-bodies';
import {
  payloadForAction,
  type TaskFormValues,
  taskFormDefaults,
  taskFormMessages,
  taskFormSchema,
} from '@aerie/shared/schedules/schedules-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '@/components/admin/form-switch';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { MessageBox } from '@/components/ui/message-box';
import { Modal } from '@/components/ui/modal';
import { type Schedule, type ScheduleTask, useSaveTask } from '@/features/schedules/api/schedules';
import { taskModalFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

interface TaskModalProps {
  visible: boolean;
  schedule: Schedule;
  /** The task to change; absent, the modal adds one (it runs last). */
  task?: ScheduleTask;
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

const valuesOf = (task?: ScheduleTask): TaskFormValues =>
  task
    ? {
        action: task.action,
        payload: task.payload,
        timeOffset: String(task.timeOffset),
        continueOnFailure: task.continueOnFailure,
      }
    : taskFormDefaults;

/**
 * "Create Task" or "Edit Task" (spec §5): the action (Send Command, Send Power Action, Create Backup), its payload
 * (a command; start, restart, stop or kill, start first; or a backup's ignored files, which may be left empty),
 * the time offset (0–900 s) and Continue on Failure. Changing the action clears the payload. While the server's
 * backup limit is 0 a backup task cannot be saved and the refusal shows in place of its field. A refused save shows
 * inside the modal under `schedule:task`.
 */
export function TaskModal({ visible, schedule, task, onClose, onDismissed }: TaskModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const save = useSaveTask(server.id, schedule.id);

  const form = useForm<TaskFormValues>({
    resolver: zodResolver(taskFormSchema),
    defaultValues: valuesOf(task),
    mode: 'onTouched',
  });
  const action = form.watch('action');
  const submitting = form.formState.isSubmitting;
  const backupRefused = action === 'backup' && server.featureLimits.backups === 0;

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(taskModalFlashKey), []);

  const actionField = form.register('action', {
    onChange: (event: { target: { value: string } }) =>
      form.resetField('payload', {
        defaultValue: payloadForAction(event.target.value as TaskFormValues['action']),
      }),
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    if (values.action === 'backup' && server.featureLimits.backups === 0) return;
    flashActions().clearFlashes(taskModalFlashKey);
    try {
      await save.mutateAsync({
        taskId: task?.id,
        input: {
          action: values.action,
          payload: values.payload,
          timeOffset: Number(values.timeOffset),
          continueOnFailure: values.continueOnFailure,
        },
      });
      onClose();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: taskModalFlashKey, error });
    }
  });

  const payloadField =
    action === 'command' ? (
      <FormTextareaField<TaskFormValues> name="payload" label={t('schedules.task_modal.payload')} rows={4} />
    ) : action === 'power' ? (
      <SelectField
        {...form.register('payload')}
        label={t('schedules.task_modal.payload')}
        options={powerPayloads.map((payload) => ({
          value: payload,
          label: t(`schedules.task_modal.power.${payload}`),
        }))}
      />
    ) : backupRefused ? (
      <MessageBox type="error">{taskFormMessages.backupLimitZero}</MessageBox>
    ) : (
      <FormTextareaField<TaskFormValues>
        name="payload"
        label={t('schedules.task_modal.ignored_files')}
        description={t('schedules.task_modal.ignored_files_hint')}
        rows={4}
      />
    );

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={task ? t('schedules.task_modal.edit_title') : t('schedules.task_modal.create_title')}
      showSpinnerOverlay={submitting}
      size="lg"
    >
      <FlashMessageRender byKey={taskModalFlashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-6">
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              {...actionField}
              label={t('schedules.task_modal.action')}
              options={taskActions.map((value) => ({
                value,
                label: t(`schedules.task.actions.${value}`),
              }))}
            />
            <div className="sm:col-span-2">
              <FormField<TaskFormValues>
                name="timeOffset"
                label={t('schedules.task_modal.time_offset')}
                description={t('schedules.task_modal.time_offset_hint')}
                inputMode="numeric"
                autoComplete="off"
              />
            </div>
          </div>
          {payloadField}
          <div className="rounded-lg border border-ink-800 bg-ink-900 p-4">
            <FormSwitch<TaskFormValues>
              name="continueOnFailure"
              label={t('schedules.task_modal.continue_on_failure')}
              description={t('schedules.task_modal.continue_on_failure_hint')}
            />
          </div>
          <div className="flex justify-end">
            <Button type="submit" isLoading={submitting} disabled={backupRefused}>
              {task ? t('schedules.task_modal.save') : t('schedules.task_modal.create')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}
