import { canAll } from '@aerie/shared/permissions/can';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '@/components/ui/icons';
import { RowMenu } from '@/components/ui/row-menu';
import { Spinner } from '@/components/ui/spinner';
import { type Backup, hasFailed, isRunning } from '@/features/backups/api/backups';
import { useServerPermissions } from '@/features/servers/hooks/use-server';

export type BackupAction = 'download' | 'restore' | 'lock' | 'unlock' | 'delete';

/**
 * What a user may do with a backup (spec §4, §6): nothing while it runs; a failed one only delete; a successful one
 * Download (backup.download), Restore (backup.restore), Lock / Unlock and Delete (backup.delete), Delete only while
 * unlocked.
 */
export function useBackupActions(backup: Backup): BackupAction[] {
  const held = useServerPermissions();
  const can = (permission: string) => canAll(held, [permission]);
  if (isRunning(backup)) return [];
  if (hasFailed(backup)) return can('backup.delete') ? ['delete'] : [];
  const actions: [BackupAction, boolean][] = [
    ['download', can('backup.download')],
    ['restore', can('backup.restore')],
    [backup.isLocked ? 'unlock' : 'lock', can('backup.delete')],
    ['delete', can('backup.delete') && !backup.isLocked],
  ];
  return actions.filter(([, allowed]) => allowed).map(([action]) => action);
}

const iconButton =
  'inline-flex items-center justify-center rounded-md p-2 text-ink-300 transition-colors disabled:opacity-50';

interface BackupRowMenuProps {
  backup: Backup;
  /** True while a download link or a lock change is under way. */
  busy: boolean;
  onAction: (action: BackupAction) => void;
}

/**
 * The row's actions: the ⋯ menu of a successful backup, a delete button on a failed one, nothing while it runs or
 * when the user may take none of them (the menu needs backup.download, backup.restore or backup.delete).
 */
export function BackupRowMenu({ backup, busy, onAction }: BackupRowMenuProps) {
  const { t } = useTranslation('server');
  const actions = useBackupActions(backup);

  if (actions.length === 0) return null;

  if (hasFailed(backup)) {
    const label = t('backups.delete_label', { name: backup.name });
    return (
      <button
        type="button"
        aria-label={label}
        title={label}
        onClick={() => onAction('delete')}
        className={clsx(iconButton, 'hover:bg-red-500/10 hover:text-red-400')}
      >
        <TrashIcon className="size-5" />
      </button>
    );
  }

  return (
    <RowMenu
      label={t('backups.actions_label', { name: backup.name })}
      items={actions.map((action) => ({
        action,
        label: t(`backups.menu.${action}`),
        danger: action === 'delete',
      }))}
      onSelect={onAction}
      busy={busy}
      buttonClassName={clsx(iconButton, 'min-w-9 hover:bg-ink-700 hover:text-ink-50')}
    >
      {busy ? <Spinner size="small" /> : <span aria-hidden="true">⋯</span>}
    </RowMenu>
  );
}
