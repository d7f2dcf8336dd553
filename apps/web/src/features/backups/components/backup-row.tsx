import { DaemonEvent } from '@aerie/shared/console/socket-events';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { FileArchiveIcon, LockIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import {
  type Backup,
  completeCachedBackup,
  hasFailed,
  isRunning,
  parseBackupCompleted,
  useBackupDownload,
  useDeleteBackup,
  useRestoreBackup,
  useToggleBackupLock,
} from '@/features/backups/api/backups';
import { type BackupAction, BackupRowMenu } from '@/features/backups/components/backup-row-menu';
import { backupsFlashKey } from '@/features/backups/components/backups-flash-keys';
import { useSocketEvent } from '@/features/console/hooks/use-console-socket';
import { useServer } from '@/features/servers/hooks/use-server';
import { errorToMessage } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { formatDate, formatRelative } from '@/lib/format-dates';
import { flashActions } from '@/stores/flash-store';
import { formatBytes } from '@/utils/format-bytes';

/** The full date shown on hover over the relative time (the activity log's format). */
const fullDateFormat = 'MMM do, yyyy H:mm:ss';

type Confirming = 'delete' | 'unlock' | 'restore' | null;

/**
 * A backup in the list (spec §2 "Backups"): a spinner while it runs, the lock when locked, a red Failed tag when it
 * ended badly, its name, its size once successful, its checksum, and when it was created. Its own socket event
 * (`backup completed:<uuid>`) finishes it in place.
 */
export function BackupRow({ backup }: { backup: Backup }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const queryClient = useQueryClient();
  const download = useBackupDownload(server.id);
  const toggleLock = useToggleBackupLock(server.id);
  const remove = useDeleteBackup(server.id);
  const restore = useRestoreBackup(server.id);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [truncate, setTruncate] = useState(false);

  useSocketEvent(`${DaemonEvent.backupCompleted}:${backup.uuid}`, (raw) => {
    const event = parseBackupCompleted(raw);
    if (event) completeCachedBackup(queryClient, server.id, { ...event, uuid: backup.uuid });
  });

  const running = isRunning(backup);
  const failed = hasFailed(backup);

  const handleDownload = async () => {
    flashActions().clearFlashes(backupsFlashKey);
    try {
      browser.loadPage(await download.mutateAsync(backup.uuid));
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: backupsFlashKey, error });
    }
  };

  // A refused lock change is an alert, as upstream's (spec §8).
  const handleToggleLock = async () => {
    try {
      await toggleLock.mutateAsync(backup.uuid);
    } catch (error) {
      window.alert(errorToMessage(error));
    }
    setConfirming(null);
  };

  const handleDelete = async () => {
    flashActions().clearFlashes(backupsFlashKey);
    try {
      await remove.mutateAsync(backup);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: backupsFlashKey, error });
      setConfirming(null);
    }
  };

  const handleRestore = async () => {
    flashActions().clearFlashes(backupsFlashKey);
    try {
      // Once it started the server area shows the restoring screen in place of this page.
      await restore.mutateAsync({ uuid: backup.uuid, truncate });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: backupsFlashKey, error });
      setConfirming(null);
    }
  };

  const handleAction = (action: BackupAction) => {
    if (action === 'download') void handleDownload();
    else if (action === 'lock') void handleToggleLock();
    else if (action === 'restore') {
      setTruncate(false);
      setConfirming('restore');
    } else setConfirming(action);
  };

  return (
    <li
      aria-label={backup.name}
      className="flex flex-wrap items-center gap-4 rounded-xl border border-ink-800 bg-ink-900/70 px-5 py-4 md:flex-nowrap"
    >
      <div className="flex w-full min-w-0 items-center gap-4 md:flex-1">
        <div className="flex w-5 shrink-0 flex-col items-center gap-1 text-ink-300">
          {running && <Spinner size="small" className="text-brand-400" label={t('backups.running')} />}
          {backup.isLocked && (
            <LockIcon
              role="img"
              aria-hidden={false}
              aria-label={t('backups.locked')}
              className="size-5 text-amber-400"
            >
              <title>{t('backups.locked')}</title>
            </LockIcon>
          )}
          {!running && !backup.isLocked && <FileArchiveIcon className="size-5" />}
        </div>
        <div className="min-w-0">
          <div className="flex items-center gap-2 text-sm">
            {failed && (
              <span className="rounded-full border border-red-600 bg-red-500 px-2 py-px text-xs font-semibold uppercase text-white">
                {t('backups.failed')}
              </span>
            )}
            <p className="truncate font-medium text-ink-50">{backup.name}</p>
            {!running && backup.isSuccessful && (
              <span className="shrink-0 text-xs text-ink-300">{formatBytes(backup.bytes)}</span>
            )}
          </div>
          {backup.checksum && (
            <p className="mt-1 truncate font-mono text-xs text-ink-400">{backup.checksum}</p>
          )}
        </div>
      </div>
      <div className="flex-1 md:w-48 md:flex-none md:text-center">
        <time
          dateTime={backup.createdAt.toISOString()}
          title={formatDate(backup.createdAt, fullDateFormat)}
          className="text-sm text-ink-200"
        >
          {formatRelative(backup.createdAt)}
        </time>
        <p className="mt-1 text-[0.65rem] uppercase tracking-wide text-ink-500">{t('backups.created')}</p>
      </div>
      <div className="flex w-9 justify-end">
        <BackupRowMenu
          backup={backup}
          busy={download.isPending || toggleLock.isPending}
          onAction={handleAction}
        />
      </div>

      <ConfirmationModal
        visible={confirming === 'delete'}
        onClose={() => setConfirming(null)}
        title={t('backups.delete.title')}
        confirmLabel={t('backups.delete.confirm')}
        cancelLabel={t('backups.delete.cancel')}
        onConfirm={() => void handleDelete()}
        isLoading={remove.isPending}
      >
        {t('backups.delete.message')}
      </ConfirmationModal>
      <ConfirmationModal
        visible={confirming === 'unlock'}
        onClose={() => setConfirming(null)}
        title={t('backups.unlock.title')}
        confirmLabel={t('backups.unlock.confirm')}
        cancelLabel={t('backups.unlock.cancel')}
        onConfirm={() => void handleToggleLock()}
        isLoading={toggleLock.isPending}
      >
        {t('backups.unlock.message')}
      </ConfirmationModal>
      <ConfirmationModal
        visible={confirming === 'restore'}
        onClose={() => setConfirming(null)}
        title={t('backups.restore.title')}
        confirmLabel={t('backups.restore.confirm')}
        cancelLabel={t('backups.restore.cancel')}
        onConfirm={() => void handleRestore()}
        isLoading={restore.isPending}
      >
        {t('backups.restore.message')}
        <label className="mt-4 flex cursor-pointer items-center gap-3 rounded-lg bg-ink-800 p-3 text-sm text-ink-100">
          <input
            type="checkbox"
            checked={truncate}
            onChange={(event) => setTruncate(event.target.checked)}
            className="size-4 accent-red-500"
          />
          {t('backups.restore.truncate')}
        </label>
      </ConfirmationModal>
    </li>
  );
}
