import { type ChangeEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Label } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { type EggSummary, importEgg, useNestsMutation } from '@/features/admin-nests/api/nests';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:nests:import';

/**
 * Imports an egg file into the nest: uploaded (its text is read in the browser) or pasted. JSON objects go to the
 * API as JSON, anything else (Pelican's YAML) as `{file}`; the API's error shows in the dialog.
 */
export function ImportEggModal({
  nestId,
  visible,
  onClose,
  onImported,
}: {
  nestId: number;
  visible: boolean;
  onClose: () => void;
  onImported: (egg: EggSummary) => void;
}) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const run = useNestsMutation((source: string) => importEgg(nestId, source));

  useEffect(() => {
    if (!visible) return;
    setText('');
    setError(undefined);
    flashActions().clearFlashes(flashKey);
  }, [visible]);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };

  const submit = async () => {
    flashActions().clearFlashes(flashKey);
    if (text.trim() === '') {
      setError(t('nests.import_required'));
      return;
    }
    setError(undefined);
    try {
      const egg = await run.mutateAsync([text]);
      onImported(egg);
      onClose();
    } catch (failure) {
      flashActions().clearAndAddHttpError({ key: flashKey, error: failure });
    }
  };

  return (
    <Modal
      visible={visible}
      onDismissed={onClose}
      title={t('nests.import_title')}
      showSpinnerOverlay={run.isPending}
      size="lg"
    >
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <div className="space-y-5">
        <div>
          <Label htmlFor="egg-import-file">{t('nests.import_file')}</Label>
          <input
            id="egg-import-file"
            type="file"
            accept=".json,.yaml,.yml,application/json,text/yaml"
            onChange={readFile}
            className="block w-full text-sm text-ink-300 file:mr-3 file:rounded-md file:border-0 file:bg-ink-700 file:px-3 file:py-1.5 file:text-ink-100"
          />
        </div>
        <TextareaField
          label={t('nests.import_text')}
          description={t('nests.import_hint')}
          value={text}
          error={error}
          onChange={(event) => setText(event.target.value)}
          rows={12}
          spellCheck={false}
          className="font-mono text-xs"
        />
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button onClick={submit} isLoading={run.isPending}>
            {t('nests.import')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
