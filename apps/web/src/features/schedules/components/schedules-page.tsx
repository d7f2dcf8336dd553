import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { SpinnerBlock } from '@/components/ui/spinner';
import { schedulesQueryOptions } from '@/features/schedules/api/schedules';
import { ScheduleModal } from '@/features/schedules/components/schedule-modal';
import { ScheduleRow } from '@/features/schedules/components/schedule-row';
import { schedulesFlashKey } from '@/features/schedules/components/schedules-flash-keys';
import { Can } from '@/features/servers/components/can';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Whether the modal is open, or still fading out. */
type ModalState = 'open' | 'closing' | null;

/**
 * The Schedules page's content (spec §2 "Schedules"): one row per schedule, linking to its page, and Create
 * schedule for users with schedule.create. The list asks again while a schedule is processing. Load errors flash
 * under `schedules`.
 */
export function SchedulesPage() {
  const { t } = useTranslation('server');
  const server = useServer();
  const list = useQuery(schedulesQueryOptions(server.id));
  const [modal, setModal] = useState<ModalState>(null);

  useEffect(() => {
    if (list.error) flashActions().clearAndAddHttpError({ key: schedulesFlashKey, error: list.error });
  }, [list.error]);

  if (!list.data) return list.isError ? null : <SpinnerBlock />;

  return (
    <>
      {list.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center text-sm text-ink-300">
          {t('schedules.empty')}
        </p>
      ) : (
        <ul aria-label={t('schedules.list_label')} className="space-y-2">
          {list.data.map((schedule) => (
            <ScheduleRow key={schedule.id} serverId={server.id} schedule={schedule} />
          ))}
        </ul>
      )}
      <Can action="schedule.create">
        <div className="mt-6 flex justify-end">
          <Button onClick={() => setModal('open')}>{t('schedules.create')}</Button>
        </div>
      </Can>
      {modal && (
        <ScheduleModal
          visible={modal === 'open'}
          onClose={() => setModal('closing')}
          onDismissed={() => setModal(null)}
        />
      )}
    </>
  );
}
