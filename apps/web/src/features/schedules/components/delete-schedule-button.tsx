import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { useDeleteSchedule } from '@/features/schedules/api/schedules';
import { schedulesFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Deletes the schedule after a confirmation, then `onDeleted` (back to the list); a refusal flashes. */
export function DeleteScheduleButton({
  scheduleId,
  onDeleted,
}: {
  scheduleId: number;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('server');
  const server = useServer();
  const remove = useDeleteSchedule(server.id);
  const [confirming, setConfirming] = useState(false);

  const handleConfirm = async () => {
    flashActions().clearFlashes(schedulesFlashKey);
    try {
      await remove.mutateAsync(scheduleId);
      onDeleted();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: schedulesFlashKey, error });
      setConfirming(false);
    }
  };

  return (
    <>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('schedules.delete.title')}
        confirmLabel={t('schedules.delete.confirm')}
        cancelLabel={t('schedules.delete.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={remove.isPending}
      >
        {t('schedules.delete.message')}
      </ConfirmationModal>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        {t('schedules.detail.delete')}
      </Button>
    </>
  );
}
