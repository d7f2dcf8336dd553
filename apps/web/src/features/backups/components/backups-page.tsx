import { DaemonEvent } from '@aerie/shared/console/socket-events';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { backupKeys, backupsQueryOptions, isRunning } from '@/features/backups/api/backups';
import { BackupRow } from '@/features/backups/components/backup-row';
import { backupsFlashKey } from '@/features/backups/components/backups-flash-keys';
import { CreateBackupModal } from '@/features/backups/components/create-backup-modal';
import { useSocketEvent } from '@/features/console/hooks/use-console-socket';
import { Can } from '@/features/servers/components/can';
import { useServer } from '@/features/servers/hooks/use-server';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

/** Whether the modal is open, or still fading out. */
type ModalState = 'open' | 'closing' | null;

const notice =
  'rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center text-sm text-ink-300';

/**
 * The Backups page's content (spec §2 "Backups"): a page of backups (`?page=`, the dashboard's pagination), the
 * spec's empty texts, "{count} of {limit} backups have been created for this server." and Create backup
 * (backup.create) while the server's backup limit is above its count. Load errors flash under `backups`. Running
 * backups finish by their socket events (the rows listen).
 */
export function BackupsPage() {
  const { t } = useTranslation('server');
  const server = useServer();
  const [page, setPage] = usePageParam();
  const list = useQuery(backupsQueryOptions(server.id, page));
  const [modal, setModal] = useState<ModalState>(null);
  const limit = server.featureLimits.backups;

  // A backup that ended while the socket was down sent its `backup completed` to nobody: each (re)authentication
  // loads the list again while one shows as running.
  const queryClient = useQueryClient();
  useSocketEvent(DaemonEvent.authSuccess, () => {
    if (list.data?.items.some(isRunning)) {
      void queryClient.invalidateQueries({ queryKey: backupKeys.all(server.id) });
    }
  });

  useEffect(() => {
    if (list.error) flashActions().clearAndAddHttpError({ key: backupsFlashKey, error: list.error });
  }, [list.error]);

  if (!list.data) return list.isError ? null : <SpinnerBlock />;
  const { items, pagination, backupCount } = list.data;

  return (
    <>
      {items.length > 0 ? (
        <ul aria-label={t('backups.list_label')} className="space-y-2">
          {items.map((backup) => (
            <BackupRow key={backup.uuid} backup={backup} />
          ))}
        </ul>
      ) : (
        // With no backups possible, the limit's text below says all there is.
        limit > 0 && <p className={notice}>{page > 1 ? t('backups.empty_page') : t('backups.empty')}</p>
      )}
      <Pagination
        className="mt-6"
        currentPage={pagination.currentPage}
        // A page past the end (its last backup deleted) keeps the way back.
        totalPages={Math.max(pagination.totalPages, pagination.currentPage)}
        onPageSelect={setPage}
      />
      {limit === 0 ? (
        <p className={items.length > 0 ? 'mt-6 text-center text-sm text-ink-300' : notice}>
          {t('backups.limit_zero')}
        </p>
      ) : (
        <div className="mt-6 flex flex-col items-stretch gap-4 sm:flex-row sm:items-center sm:justify-end">
          <p className="text-sm text-ink-300">{t('backups.count', { count: backupCount, limit })}</p>
          {limit > backupCount && (
            <Can action="backup.create">
              <Button onClick={() => setModal('open')}>{t('backups.create')}</Button>
            </Can>
          )}
        </div>
      )}
      {modal && (
        <CreateBackupModal
          visible={modal === 'open'}
          page={page}
          onClose={() => setModal('closing')}
          onDismissed={() => setModal(null)}
        />
      )}
    </>
  );
}
