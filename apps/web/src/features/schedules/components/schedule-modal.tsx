import {
  type ScheduleFormValues,
  scheduleFormDefaults,
  scheduleFormSchema,
} from '@aerie/shared/schedules/schedules-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '@/components/admin/form-switch';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { type Schedule, type ScheduleCron, useSaveSchedule } from '@/features/schedules/api/schedules';
import { scheduleModalFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { describeCron } from '@/features/schedules/utils/describe-cron';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

interface ScheduleModalProps {
  visible: boolean;
  /** The schedule to change; absent, the modal creates one from the spec's defaults. */
  schedule?: Schedule;
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

const valuesOf = (schedule?: Schedule): ScheduleFormValues =>
  schedule
    ? {
        name: schedule.name,
        ...schedule.cron,
        enabled: schedule.isActive,
        onlyWhenOnline: schedule.onlyWhenOnline,
      }
    : scheduleFormDefaults;

/** The cron expression the fields make, in words, under them; it follows every key stroke. */
function CronDescription({ cron }: { cron: ScheduleCron }) {
  const { t } = useTranslation('server');
  const description = describeCron(cron);
  return (
    <p aria-live="polite" data-testid="cron-description" className="mt-3 text-sm text-ink-200">
      {description
        ? t('schedules.modal.cron_description', { description })
        : t('schedules.modal.cron_unreadable')}
    </p>
  );
}

/**
 * "Create new schedule" or "Edit schedule": the name, the five cron fields with their description in words, and
 * the Only When Server Is Online and Schedule Enabled switches (spec §5 defaults). A refused save shows inside the
 * modal under `schedule:edit`.
 */
export function ScheduleModal({ visible, schedule, onClose, onDismissed }: ScheduleModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const save = useSaveSchedule(server.id);

  const form = useForm<ScheduleFormValues>({
    resolver: zodResolver(scheduleFormSchema),
    defaultValues: valuesOf(schedule),
    mode: 'onTouched',
  });
  const [minute, hour, dayOfMonth, month, dayOfWeek] = form.watch([
    'minute',
    'hour',
    'dayOfMonth',
    'month',
    'dayOfWeek',
  ]);
  const submitting = form.formState.isSubmitting;

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(scheduleModalFlashKey), []);

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(scheduleModalFlashKey);
    try {
      await save.mutateAsync({
        scheduleId: schedule?.id,
        input: {
          name: values.name,
          cron: {
            minute: values.minute,
            hour: values.hour,
            dayOfMonth: values.dayOfMonth,
            month: values.month,
            dayOfWeek: values.dayOfWeek,
          },
          isActive: values.enabled,
          onlyWhenOnline: values.onlyWhenOnline,
        },
      });
      onClose();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: scheduleModalFlashKey, error });
    }
  });

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={schedule ? t('schedules.modal.edit_title') : t('schedules.modal.create_title')}
      showSpinnerOverlay={submitting}
      size="lg"
    >
      <FlashMessageRender byKey={scheduleModalFlashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-6">
          <FormField<ScheduleFormValues>
            name="name"
            label={t('schedules.modal.name')}
            description={t('schedules.modal.name_hint')}
            autoComplete="off"
            autoFocus
          />
          <div>
            <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
              <FormField<ScheduleFormValues> name="minute" label={t('schedules.modal.minute')} />
              <FormField<ScheduleFormValues> name="hour" label={t('schedules.modal.hour')} />
              <FormField<ScheduleFormValues> name="dayOfMonth" label={t('schedules.modal.day_of_month')} />
              <FormField<ScheduleFormValues> name="month" label={t('schedules.modal.month')} />
              <FormField<ScheduleFormValues> name="dayOfWeek" label={t('schedules.modal.day_of_week')} />
            </div>
            <CronDescription cron={{ minute, hour, dayOfMonth, month, dayOfWeek }} />
            <p className="mt-2 text-xs text-ink-400">{t('schedules.modal.cron_hint')}</p>
          </div>
          <div className="rounded-lg border border-ink-800 bg-ink-900 p-4">
            <FormSwitch<ScheduleFormValues>
              name="onlyWhenOnline"
              label={t('schedules.modal.only_when_online')}
              description={t('schedules.modal.only_when_online_hint')}
            />
          </div>
          <div className="rounded-lg border border-ink-800 bg-ink-900 p-4">
            <FormSwitch<ScheduleFormValues>
              name="enabled"
              label={t('schedules.modal.enabled')}
              description={t('schedules.modal.enabled_hint')}
            />
          </div>
          <div className="flex justify-end">
            <Button type="submit" isLoading={submitting}>
              {schedule ? t('schedules.modal.save') : t('schedules.modal.create')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}
