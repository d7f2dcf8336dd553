import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { createFolder, fileKeys } from '@/features/files/api/files';
import { containerLocationPreview, FieldModal } from '@/features/files/components/field-modal';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Errors of the create-directory modal show inside it (spec §8). */
const flashKey = 'files:directory-modal';

export function CreateDirectoryButton({ directory }: { directory: string }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const queryClient = useQueryClient();
  const [visible, setVisible] = useState(false);

  const handleSubmit = async (name: string) => {
    flashActions().clearFlashes(flashKey);
    try {
      await createFolder(server.id, { root: directory, name });
      await queryClient.invalidateQueries({ queryKey: fileKeys.list(server.id, directory) });
      return true;
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
      return false;
    }
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setVisible(true)}>
        {t('files.create_directory')}
      </Button>
      <FieldModal
        visible={visible}
        onDismissed={() => {
          flashActions().clearFlashes(flashKey);
          setVisible(false);
        }}
        title={t('files.directory.title')}
        label={t('files.directory.label')}
        invalidMessage={t('files.directory.required')}
        submitLabel={t('files.directory.submit')}
        cancelLabel={t('files.directory.cancel')}
        flashKey={flashKey}
        preview={containerLocationPreview(t('files.directory.preview'), directory)}
        onSubmit={handleSubmit}
      />
    </>
  );
}
