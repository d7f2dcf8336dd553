import { useTranslation } from 'react-i18next';
import { FileEditor } from '@/features/files/components/file-editor';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** /server/:id/files/edit#/path/to/file */
export function EditFileRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.file_editor')}>
      <FileEditor isNew={false} />
    </ServerContentBlock>
  );
}

/** /server/:id/files/new#/directory */
export function NewFileRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.file_editor')}>
      <FileEditor isNew />
    </ServerContentBlock>
  );
}
