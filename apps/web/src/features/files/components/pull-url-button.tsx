import { toNestErrors } from '@hookform/resolvers';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { fileKeys, pullFile } from '@/features/files/api/files';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Errors of the pull modal show inside it, as the other file dialogs' do. */
const flashKey = 'files:pull-modal';

interface Values {
  url: string;
  name: string;
}

const isHttpUrl = (value: string) => /^https?:\/\/[^\s/?#]+/i.test(value) && URL.canParse(value);
/** The node refuses anything but a plain name; said here first, before a round trip. */
const isPlainName = (value: string) =>
  value === '' || !(/[/\\]/.test(value) || value === '.' || value === '..');

/** "Pull from URL": the node downloads a file into the current directory; the listing refreshes once it is there. */
export function PullUrlButton({ directory }: { directory: string }) {
  const { t } = useTranslation('server');
  const [visible, setVisible] = useState(false);
  const close = () => {
    flashActions().clearFlashes(flashKey);
    setVisible(false);
  };
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setVisible(true)}>
        {t('files.pull.button')}
      </Button>
      {visible && <PullUrlModal directory={directory} onDismissed={close} />}
    </>
  );
}

function PullUrlModal({ directory, onDismissed }: { directory: string; onDismissed: () => void }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const queryClient = useQueryClient();
  // A plain resolver, as the file manager's other dialogs: no zod in this chunk for two fields.
  const resolver: Resolver<Values> = async ({ url, name }, _context, options) => {
    const values = { url: url.trim(), name: name.trim() };
    const errors: Record<string, { type: string; message: string }> = {};
    if (!isHttpUrl(values.url)) errors.url = { type: 'invalid', message: t('files.pull.url_invalid') };
    if (!isPlainName(values.name)) errors.name = { type: 'invalid', message: t('files.pull.name_invalid') };
    if (Object.keys(errors).length > 0) {
      return { values: {} as Record<string, never>, errors: toNestErrors(errors, options) };
    }
    return { values, errors: {} };
  };
  const form = useForm<Values>({ resolver, defaultValues: { url: '', name: '' }, mode: 'onTouched' });
  const handleSubmit = form.handleSubmit(async ({ url, name }) => {
    flashActions().clearFlashes(flashKey);
    try {
      // In the foreground: the dialog stays until the file is whole, so a refusal is shown right here.
      await pullFile(server.id, {
        url,
        directory,
        ...(name === '' ? {} : { filename: name }),
        foreground: true,
      });
      await queryClient.invalidateQueries({ queryKey: fileKeys.list(server.id, directory) });
      onDismissed();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  });

  return (
    <Modal
      visible
      onDismissed={onDismissed}
      title={t('files.pull.title')}
      showSpinnerOverlay={form.formState.isSubmitting}
      size="sm"
    >
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-4">
          <FormField<Values>
            name="url"
            type="url"
            label={t('files.pull.url_label')}
            description={t('files.pull.url_hint')}
            placeholder="https://"
            autoFocus
            autoComplete="off"
            spellCheck={false}
          />
          <FormField<Values>
            name="name"
            label={t('files.pull.name_label')}
            description={t('files.pull.name_hint')}
            autoComplete="off"
            spellCheck={false}
          />
          <p className="break-all text-xs text-ink-400">
            {t('files.pull.preview')} <code className="text-ink-200">/home/container{directory}</code>
          </p>
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onDismissed}>
              {t('files.pull.cancel')}
            </Button>
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('files.pull.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}
