import { useTranslation } from 'react-i18next';
import type { FileEntry } from '@/features/files/api/transformers';
import { DeleteFilesModal } from '@/features/files/components/delete-files-modal';
import { FieldModal } from '@/features/files/components/field-modal';
import type { useFileActions } from '@/features/files/hooks/use-file-actions';
import { isOctalMode } from '@/features/files/utils/file-mode';
import { joinPath, normalizeDirectory } from '@/features/files/utils/paths';

/** A dialog some action opened, and the files it is about. */
export interface FileDialog {
  kind: 'rename' | 'move' | 'permissions' | 'delete';
  files: FileEntry[];
}

interface FileDialogsProps {
  dialog: FileDialog | null;
  onClose: () => void;
  actions: ReturnType<typeof useFileActions>;
  /** Called once an action on the selection went through, to clear it. */
  onDone: () => void;
}

/** Moving several files asks for a directory; each keeps its name (relative to the current directory). */
const moveTarget = (value: string, name: string, many: boolean) =>
  many ? joinPath(normalizeDirectory(value).slice(1), name).replace(/^\//, '') : value.replace(/^\/+/, '');

export function FileDialogs({ dialog, onClose, actions, onDone }: FileDialogsProps) {
  const { t } = useTranslation('server');
  const files = dialog?.files ?? [];
  const first = files[0];
  const many = files.length > 1;

  const rename = async (value: string) => {
    // The dialog closes at once: the listing already shows the change, and a failure reloads it.
    onClose();
    const ok = await actions.rename(
      files.map((file) => ({ from: file.name, to: moveTarget(value, file.name, many) })),
    );
    if (ok) onDone();
    return false;
  };

  return (
    <>
      <FieldModal
        visible={dialog?.kind === 'rename' || dialog?.kind === 'move'}
        onDismissed={onClose}
        title={t(dialog?.kind === 'move' ? 'files.rename.move_title' : 'files.rename.title')}
        label={t('files.rename.label')}
        description={t(dialog?.kind === 'move' ? 'files.rename.move_hint' : 'files.rename.rename_hint')}
        invalidMessage={t('files.rename.required')}
        initialValue={many ? '' : (first?.name ?? '')}
        submitLabel={t(dialog?.kind === 'move' ? 'files.rename.move_submit' : 'files.rename.submit')}
        cancelLabel={t('files.rename.cancel')}
        onSubmit={rename}
      />
      <FieldModal
        visible={dialog?.kind === 'permissions'}
        onDismissed={onClose}
        title={t('files.chmod.title')}
        label={t('files.chmod.label')}
        description={t('files.chmod.hint')}
        invalidMessage={t('files.chmod.invalid')}
        isValid={isOctalMode}
        initialValue={first?.modeBits ?? ''}
        submitLabel={t('files.chmod.submit')}
        cancelLabel={t('files.chmod.cancel')}
        onSubmit={async (mode) => {
          onClose();
          await actions.chmod(files.map((file) => ({ file: file.name, mode })));
          return false;
        }}
      />
      <DeleteFilesModal
        visible={dialog?.kind === 'delete'}
        names={files.map((file) => file.name)}
        onClose={onClose}
        onConfirm={() => {
          onClose();
          void actions.remove(files.map((file) => file.name)).then((ok) => ok && onDone());
        }}
      />
    </>
  );
}
