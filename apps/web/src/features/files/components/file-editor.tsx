import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { MessageBox } from '@/components/ui/message-box';
import { ErrorPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { fileKeys, getFileContents, writeFileContents } from '@/features/files/api/files';
import { CodeEditor, type CodeEditorHandle } from '@/features/files/components/code-editor';
import { containerLocationPreview, FieldModal } from '@/features/files/components/field-modal';
import { FileBreadcrumbs } from '@/features/files/components/file-breadcrumbs';
import { useFilePermissions } from '@/features/files/hooks/use-file-permissions';
import { decodePathHash, dirname, encodePathHash, joinPath } from '@/features/files/utils/paths';
import { useServer } from '@/features/servers/hooks/use-server';
import { errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

/** Errors of the editor show above it (spec §8). */
export const editorFlashKey = 'files:view';

/**
 * /files/edit#<file> edits a file; /files/new#<dir> starts an empty one and asks for its name on the first save.
 * Read-only without file.update (file.create for a new file).
 */
export function FileEditor({ isNew }: { isNew: boolean }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const can = useFilePermissions();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const path = decodePathHash(useLocation().hash);
  const directory = isNew ? path : dirname(path);
  const editor = useRef<CodeEditorHandle>(null);
  const [saving, setSaving] = useState(false);
  const [askName, setAskName] = useState(false);
  const readOnly = isNew ? !can.create : !can.update;

  const contents = useQuery({
    queryKey: fileKeys.contents(server.id, path),
    queryFn: ({ signal }) => getFileContents(server.id, path, signal),
    enabled: !isNew,
    retry: false,
    // Always the file as it is now: another tab or the game may have changed it.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  const backToDirectory = () =>
    navigate({ pathname: paths.serverPage(server.id, 'files'), hash: encodePathHash(directory) });

  const write = async (file: string) => {
    flashActions().clearFlashes(editorFlashKey);
    setSaving(true);
    try {
      const text = editor.current?.getContent() ?? '';
      await writeFileContents(server.id, file, text);
      queryClient.setQueryData(fileKeys.contents(server.id, file), text);
      return true;
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: editorFlashKey, error });
      return false;
    } finally {
      setSaving(false);
    }
  };

  const handleSave = () => {
    if (readOnly || saving) return;
    if (isNew) setAskName(true);
    else void write(path);
  };

  const handleCreate = async (name: string) => {
    const file = joinPath(directory, name);
    if (!(await write(file))) return false;
    navigate(
      { pathname: paths.serverPage(server.id, 'files/edit'), hash: encodePathHash(file) },
      { replace: true },
    );
    return true;
  };

  if (contents.error) {
    return <ErrorPage message={errorToMessage(contents.error)} onBack={backToDirectory} />;
  }

  const fileName = isNew ? undefined : path.split('/').pop();
  return (
    <div>
      <div className="mb-4">
        <FileBreadcrumbs directory={directory} fileName={fileName} />
      </div>
      <FlashMessageRender byKey={editorFlashKey} className="mb-4" />
      {readOnly && (
        <MessageBox type="info" className="mb-4">
          {t('editor.read_only')}
        </MessageBox>
      )}
      {isNew || contents.data !== undefined ? (
        <CodeEditor
          ref={editor}
          content={isNew ? '' : (contents.data ?? '')}
          filename={fileName ?? ''}
          readOnly={readOnly}
          onSave={handleSave}
        />
      ) : (
        <SpinnerBlock />
      )}
      {!readOnly && (
        <div className="mt-4 flex justify-end">
          <Button onClick={handleSave} isLoading={saving}>
            {isNew ? t('editor.create') : t('editor.save')}
          </Button>
        </div>
      )}
      <FieldModal
        visible={askName}
        onDismissed={() => setAskName(false)}
        title={t('editor.new_file.title')}
        label={t('editor.new_file.label')}
        description={t('editor.new_file.hint')}
        invalidMessage={t('editor.new_file.required')}
        submitLabel={t('editor.new_file.submit')}
        cancelLabel={t('editor.new_file.cancel')}
        flashKey={editorFlashKey}
        preview={containerLocationPreview(t('editor.new_file.preview'), directory)}
        onSubmit={handleCreate}
      />
    </div>
  );
}
