import { type ChangeEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { TextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Label } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { importEgg, useNestsMutation } from '@/features/admin-nests/api/nests';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:nests:import';

/**
 * Imports an egg file into a nest: uploaded (its text is read in the browser) or pasted. JSON objects go to the
 * API as JSON, anything else (Pelican's YAML) as `{file}`; the API's error shows in the dialog, and a success is
 * said on the page (`pageFlashKey`). On a nest's page the nest is that one; on the list, the admin picks it.
 */
export function ImportEggModal({
  nests,
  nestId,
  visible,
  onClose,
  pageFlashKey,
}: {
  /** The nests it may go into; with one (or `nestId`), no choice is offered. */
  nests: readonly { id: number; name: string }[];
  nestId?: number;
  visible: boolean;
  onClose: () => void;
  pageFlashKey: string;
}) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [chosen, setChosen] = useState<number | undefined>(nestId);
  const target = nestId ?? chosen ?? nests[0]?.id;
  const run = useNestsMutation((source: string) => importEgg(target ?? 0, source));

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
      const nest = nests.find((candidate) => candidate.id === target)?.name ?? '';
      flashActions().clearFlashes(pageFlashKey);
      flashActions().addFlash({
        key: pageFlashKey,
        type: 'success',
        message: t('nests.imported', { egg: egg.name, nest }),
      });
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
        {nestId === undefined && nests.length > 1 && (
          <SelectField
            label={t('nests.import_nest')}
            value={String(target ?? '')}
            onChange={(event) => setChosen(Number(event.target.value))}
            options={nests.map((nest) => ({ value: String(nest.id), label: nest.name }))}
          />
        )}
        <div>
          <Label htmlFor="egg-import-file">{t('nests.import_file')}</Label>
          <input
            id="egg-import-file"
            type="file"
            accept=".json,.yaml,.yml,application/json,text/yaml"
            onChange={readFile}
            className="block w-full text-sm text-ink-300 file:me-3 file:rounded-md file:border-0 file:bg-ink-700 file:px-3 file:py-1.5 file:text-ink-100"
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
