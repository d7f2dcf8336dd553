import { startupLimits } from '@aerie/shared/startup/startup-bodies';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { Input } from '@/components/ui/input';
import { MessageBox } from '@/components/ui/message-box';
import { Spinner } from '@/components/ui/spinner';
import type { ServerVariable } from '@/features/servers/api/transformers';
import { useServer } from '@/features/servers/hooks/use-server';
import { useUpdateStartupVariable } from '@/features/startup/api/startup';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { errorToMessage } from '@/lib/api-client';

interface VariableBoxProps {
  variable: ServerVariable;
  /** The user holds startup.update. */
  canUpdate: boolean;
}

/**
 * One variable's card: its name, a Read Only badge when the egg locks it, the value (the default as placeholder)
 * and its description. An editable value is saved 500 ms after the last key-up (spec §5); the save's error shows
 * on this card (spec §8).
 */
export function VariableBox({ variable, canUpdate }: VariableBoxProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const update = useUpdateStartupVariable(server.id);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const editable = canUpdate && variable.isEditable;

  const save = useDebouncedCallback((value: string) => {
    setError(null);
    // Keys that change nothing (arrows, Tab into the field) send nothing.
    if (value === (variable.serverValue ?? '')) return;
    update.mutate(
      { key: variable.envVariable, value },
      { onError: (cause) => setError(errorToMessage(cause)) },
    );
  }, startupLimits.variableDebounceMs);

  return (
    <ContentBox
      title={
        <span className="flex items-center gap-2">
          {!variable.isEditable && (
            <span className="rounded-full bg-ink-700 px-2 py-0.5 text-[0.65rem] font-semibold normal-case tracking-normal text-ink-200">
              {t('startup.read_only')}
            </span>
          )}
          <label htmlFor={inputId}>{variable.name}</label>
        </span>
      }
    >
      {error && (
        <MessageBox type="error" title={t('startup.error_title')} className="mb-3">
          {error}
        </MessageBox>
      )}
      <div className="relative">
        <Input
          id={inputId}
          name={variable.envVariable}
          defaultValue={variable.serverValue ?? ''}
          placeholder={variable.defaultValue}
          readOnly={!editable}
          aria-describedby={`${inputId}-description`}
          spellCheck={false}
          className="font-mono"
          onKeyUp={(event) => {
            if (editable) save(event.currentTarget.value);
          }}
        />
        {update.isPending && (
          <span className="absolute inset-y-0 inset-e-3 flex items-center text-brand-400">
            <Spinner size="small" label={t('startup.saving')} />
          </span>
        )}
      </div>
      <p id={`${inputId}-description`} className="mt-2 text-xs text-ink-400">
        {variable.description}
      </p>
    </ContentBox>
  );
}
