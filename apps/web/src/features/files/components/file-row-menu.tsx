import { useTranslation } from 'react-i18next';
import { RowMenu } from '@/components/ui/row-menu';
import { type FileEntry, isArchiveType } from '@/features/files/api/transformers';
import { useFilePermissions } from '@/features/files/hooks/use-file-permissions';

export type FileAction =
  | 'rename'
  | 'move'
  | 'copy'
  | 'permissions'
  | 'archive'
  | 'unarchive'
  | 'download'
  | 'delete';

/** Which row actions a user may see for a file (spec §6). */
export function useRowActions(file: FileEntry): FileAction[] {
  const can = useFilePermissions();
  const actions: [FileAction, boolean][] = [
    ['rename', can.update],
    ['move', can.update],
    ['copy', can.create && file.isFile],
    ['permissions', can.update],
    ['archive', can.archive],
    ['unarchive', can.create && isArchiveType(file)],
    ['download', can.readContent && file.isFile],
    ['delete', can.delete],
  ];
  return actions.filter(([, allowed]) => allowed).map(([action]) => action);
}

/** The ⋯ menu of a row; hidden when the user may take none of its actions. */
export function FileRowMenu({ file, onAction }: { file: FileEntry; onAction: (action: FileAction) => void }) {
  const { t } = useTranslation('server');
  const actions = useRowActions(file);
  if (actions.length === 0) return null;
  return (
    <RowMenu
      label={t('files.actions_label', { name: file.name })}
      items={actions.map((action) => ({
        action,
        label: t(`files.menu.${action}`),
        danger: action === 'delete',
      }))}
      onSelect={onAction}
      buttonClassName="rounded-md px-2 py-1 text-ink-400 hover:bg-ink-700 hover:text-ink-50"
    >
      ⋯
    </RowMenu>
  );
}
