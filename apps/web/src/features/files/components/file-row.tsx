import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FileArchiveIcon, FileIcon, FolderIcon, LinkIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { type FileEntry, isArchiveType, isEditable } from '@/features/files/api/transformers';
import { type FileAction, FileRowMenu } from '@/features/files/components/file-row-menu';
import { useFilePermissions } from '@/features/files/hooks/use-file-permissions';
import { formatModified } from '@/features/files/utils/format-modified';
import { encodePathHash, joinPath } from '@/features/files/utils/paths';
import { useServer } from '@/features/servers/hooks/use-server';
import { formatFullDate } from '@/lib/format-dates';
import { formatBytes } from '@/utils/format-bytes';

interface FileRowProps {
  file: FileEntry;
  directory: string;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onAction: (action: FileAction) => void;
}

/** Without file.read-content a name is plain text; with it a folder opens and an editable file opens the editor. */
function FileName({ file, directory }: { file: FileEntry; directory: string }) {
  const server = useServer();
  const can = useFilePermissions();
  const path = joinPath(directory, file.name);
  const className = 'truncate font-medium text-ink-100 hover:text-brand-300';
  if (can.readContent && !file.isFile) {
    return (
      <Link to={{ hash: encodePathHash(path) }} className={className}>
        {file.name}
      </Link>
    );
  }
  if (can.readContent && isEditable(file)) {
    return (
      <Link
        to={{ pathname: paths.serverPage(server.id, 'files/edit'), hash: encodePathHash(path) }}
        className={className}
      >
        {file.name}
      </Link>
    );
  }
  return <span className="truncate font-medium text-ink-100">{file.name}</span>;
}

/** Folder, archive, link or plain file (SVG: an emoji needs a font the machine may not have). */
function FileTypeIcon({ file }: { file: FileEntry }) {
  if (file.isSymlink) return <LinkIcon />;
  if (!file.isFile) return <FolderIcon className="text-brand-400" />;
  return isArchiveType(file) ? <FileArchiveIcon /> : <FileIcon />;
}

export function FileRow({ file, directory, selected, onSelect, onAction }: FileRowProps) {
  const { t } = useTranslation('server');
  return (
    <li
      data-testid="file-row"
      className="flex items-center gap-3 rounded-lg border border-transparent bg-ink-900 px-3 py-2 text-sm hover:border-ink-700"
    >
      <input
        type="checkbox"
        aria-label={t('files.select_file', { name: file.name })}
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        className="size-4 accent-brand-500"
      />
      <span className="flex w-5 justify-center text-base text-ink-400">
        <FileTypeIcon file={file} />
      </span>
      <span className="flex min-w-0 flex-1">
        <FileName file={file} directory={directory} />
      </span>
      <span data-testid="file-mode" className="hidden font-mono text-xs text-ink-400 md:block">
        {file.mode}
      </span>
      <span data-testid="file-size" className="hidden w-20 text-end text-xs text-ink-300 sm:block">
        {file.isFile ? formatBytes(file.size) : ''}
      </span>
      <time
        data-testid="file-modified"
        dateTime={file.modifiedAt.toISOString()}
        title={formatFullDate(file.modifiedAt)}
        className="hidden w-44 text-end text-xs text-ink-300 sm:block"
      >
        {formatModified(file.modifiedAt)}
      </time>
      <FileRowMenu file={file} onAction={onAction} />
    </li>
  );
}
