import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { ErrorPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import type { FileEntry } from '@/features/files/api/transformers';
import { BulkActionBar } from '@/features/files/components/bulk-action-bar';
import { CreateDirectoryButton } from '@/features/files/components/create-directory-button';
import { FileBreadcrumbs } from '@/features/files/components/file-breadcrumbs';
import { type FileDialog, FileDialogs } from '@/features/files/components/file-dialogs';
import { FileList } from '@/features/files/components/file-list';
import type { FileAction } from '@/features/files/components/file-row-menu';
import { PullUrlButton } from '@/features/files/components/pull-url-button';
import { UploadButton } from '@/features/files/components/upload-button';
import { UploadDropZone } from '@/features/files/components/upload-drop-zone';
import { UploadProgress } from '@/features/files/components/upload-progress';
import { useDirectory } from '@/features/files/hooks/use-directory';
import { useFileActions } from '@/features/files/hooks/use-file-actions';
import { useFileList } from '@/features/files/hooks/use-file-list';
import { useFilePermissions } from '@/features/files/hooks/use-file-permissions';
import { useUpload } from '@/features/files/hooks/use-upload';
import { encodePathHash } from '@/features/files/utils/paths';
import { useServer } from '@/features/servers/hooks/use-server';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';
import { errorToMessage } from '@/lib/api-client';

/** The file manager of the open server, in the directory the URL hash names. */
export function FileManager() {
  const { t } = useTranslation('server');
  const server = useServer();
  const directory = useDirectory();
  const list = useFileList(directory);
  const actions = useFileActions(directory);
  const can = useFilePermissions();
  const { upload, uploads } = useUpload(directory);
  const selected = useServerStateStore((state) => state.selectedFiles);
  const setSelected = useServerStateStore((state) => state.setSelectedFiles);
  const [dialog, setDialog] = useState<FileDialog | null>(null);

  const selectedFiles = (list.data ?? []).filter((file) => selected.includes(file.name));

  const handleAction = (action: FileAction, file: FileEntry) => {
    switch (action) {
      case 'rename':
      case 'move':
      case 'permissions':
      case 'delete':
        setDialog({ kind: action, files: [file] });
        return;
      case 'copy':
        void actions.copy(file.name);
        return;
      case 'archive':
        void actions.compress([file.name]);
        return;
      case 'unarchive':
        void actions.decompress(file.name);
        return;
      case 'download':
        void actions.download(file.name);
    }
  };

  if (list.error && !list.data) {
    return <ErrorPage message={errorToMessage(list.error)} onRetry={() => void list.refetch()} />;
  }

  const canUpload = can.create;
  const content = (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <FileBreadcrumbs directory={directory} />
        {can.create && (
          <div className="flex flex-wrap gap-2">
            <CreateDirectoryButton directory={directory} />
            <UploadButton onFiles={(files) => void upload(files)} />
            <PullUrlButton directory={directory} />
            <Link
              to={{ pathname: paths.serverPage(server.id, 'files/new'), hash: encodePathHash(directory) }}
              className={buttonClasses('primary', 'sm')}
            >
              {t('files.new_file')}
            </Link>
          </div>
        )}
      </div>
      <UploadProgress uploads={uploads} />
      {list.data ? (
        <FileList
          files={list.data}
          directory={directory}
          selected={selected}
          onSelectedChange={setSelected}
          onAction={handleAction}
        />
      ) : (
        <SpinnerBlock />
      )}
      <BulkActionBar
        count={selectedFiles.length}
        onMove={() => setDialog({ kind: 'move', files: selectedFiles })}
        onArchive={() =>
          void actions.compress(selectedFiles.map((file) => file.name)).then(() => setSelected([]))
        }
        onDelete={() => setDialog({ kind: 'delete', files: selectedFiles })}
        onClear={() => setSelected([])}
      />
      <FileDialogs
        dialog={dialog}
        onClose={() => setDialog(null)}
        actions={actions}
        onDone={() => setSelected([])}
      />
    </div>
  );
  return canUpload ? (
    <UploadDropZone onFiles={(files) => void upload(files)}>{content}</UploadDropZone>
  ) : (
    content
  );
}
