import { useTranslation } from 'react-i18next';
import { FileManager } from '@/features/files/components/file-manager';
import { filesFlashKey } from '@/features/files/hooks/use-file-actions';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/files#/dir — the file manager. */
export function FilesRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.files')} showFlashKey={filesFlashKey}>
      <FileManager />
    </ServerContentBlock>
  );
}
