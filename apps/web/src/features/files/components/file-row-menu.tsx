import { useTranslation } from 'react-i18next';
import { type FileEntry, isArchiveType } from '@/features/files/api/transformers';
import { useFilePermissions } from '@/features/files/hooks/use-file-permissions';
import { useDismissableMenu } from '@/hooks/use-dismissable-menu';

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
  const { open, setOpen, root } = useDismissableMenu();

  if (actions.length === 0) return null;
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-label={t('files.actions_label', { name: file.name })}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="rounded-md px-2 py-1 text-ink-400 hover:bg-ink-700 hover:text-ink-50"
      >
        ⋯
      </button>
      {open && (
        <div
          role="menu"
          className="absolute right-0 z-20 mt-1 w-40 rounded-lg border border-ink-700 bg-ink-850 py-1 shadow-xl"
        >
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                onAction(action);
              }}
              className={
                action === 'delete'
                  ? 'block w-full px-3 py-1.5 text-left text-sm text-red-400 hover:bg-red-500/10'
                  : 'block w-full px-3 py-1.5 text-left text-sm text-ink-200 hover:bg-ink-700'
              }
            >
              {t(`files.menu.${action}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
