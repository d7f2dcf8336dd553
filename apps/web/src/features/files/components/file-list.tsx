import { fileLimits } from '@aerie/shared/files/file-wire';
import { useTranslation } from 'react-i18next';
import { MessageBox } from '@/components/ui/message-box';
import type { FileEntry } from '@/features/files/api/transformers';
import { FileRow } from '@/features/files/components/file-row';
import type { FileAction } from '@/features/files/components/file-row-menu';

interface FileListProps {
  files: FileEntry[];
  directory: string;
  selected: string[];
  onSelectedChange: (names: string[]) => void;
  onAction: (action: FileAction, file: FileEntry) => void;
}

/** The sorted listing, cut at 250 entries with the spec's notice. */
export function FileList({ files, directory, selected, onSelectedChange, onAction }: FileListProps) {
  const { t } = useTranslation('server');
  if (files.length === 0) {
    return <p className="py-10 text-center text-sm text-ink-400">{t('files.empty')}</p>;
  }
  const shown = files.slice(0, fileLimits.listCap);
  const allSelected = shown.every((file) => selected.includes(file.name));
  return (
    <>
      {files.length > fileLimits.listCap && (
        <MessageBox type="warning" className="mb-4">
          {t('files.too_large')}
        </MessageBox>
      )}
      <label className="mb-2 flex items-center gap-3 px-3 text-xs text-ink-400">
        <input
          type="checkbox"
          checked={allSelected}
          onChange={(event) => onSelectedChange(event.target.checked ? shown.map((file) => file.name) : [])}
          className="size-4 accent-brand-500"
        />
        {t('files.select_all')}
      </label>
      <ul className="space-y-1">
        {shown.map((file) => (
          <FileRow
            key={file.key}
            file={file}
            directory={directory}
            selected={selected.includes(file.name)}
            onSelect={(on) =>
              onSelectedChange(on ? [...selected, file.name] : selected.filter((name) => name !== file.name))
            }
            onAction={(action) => onAction(action, file)}
          />
        ))}
      </ul>
    </>
  );
}
