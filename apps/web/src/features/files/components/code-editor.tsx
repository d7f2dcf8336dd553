import type { LanguageDescription } from '@codemirror/language';
import { useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SpinnerBlock } from '@/components/ui/spinner';
import type { EditorHandle } from '@/features/files/editor/codemirror';

type EditorModule = typeof import('@/features/files/editor/codemirror');

export interface CodeEditorHandle {
  getContent: () => string;
}

interface CodeEditorProps {
  ref?: React.Ref<CodeEditorHandle>;
  content: string;
  filename: string;
  readOnly: boolean;
  onSave: () => void;
}

/**
 * Loads CodeMirror on first use (its own chunk), then edits `content` with a language mode picked from the name.
 * Tab indents, so a hint under the editor (also its accessible description) says that Escape then Tab leaves it.
 */
export function CodeEditor({ ref, content, filename, readOnly, onSave }: CodeEditorProps) {
  const { t } = useTranslation('server');
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  const save = useRef(onSave);
  save.current = onSave;
  const [module, setModule] = useState<EditorModule | null>(null);
  const [language, setLanguage] = useState<LanguageDescription | null>(null);
  const currentLanguage = useRef(language);
  currentLanguage.current = language;
  const hintId = useId();

  useEffect(() => {
    let active = true;
    void import('@/features/files/editor/codemirror').then((loaded) => active && setModule(loaded));
    return () => {
      active = false;
    };
  }, []);

  // The picked mode follows the file name until the user chooses one (a new file gets its name later).
  useEffect(() => {
    if (module) setLanguage(module.languageForFile(filename));
  }, [module, filename]);

  useEffect(() => {
    if (!module || !host.current) return;
    const created = module.createEditor(host.current, {
      doc: content,
      readOnly,
      onSave: () => save.current(),
      label: t('editor.content_label'),
      describedBy: hintId,
    });
    editor.current = created;
    void created.setLanguage(currentLanguage.current);
    return () => {
      created.destroy();
      editor.current = null;
    };
  }, [module, content, readOnly, t, hintId]);

  useEffect(() => {
    void editor.current?.setLanguage(language);
  }, [language]);

  useImperativeHandle(ref, () => ({ getContent: () => editor.current?.getContent() ?? content }), [content]);

  return (
    <div>
      <div className="min-h-[24rem] overflow-hidden rounded-lg border border-ink-700 bg-ink-950">
        {!module && <SpinnerBlock label={t('editor.loading')} />}
        {/* Files are code: left to right in every language. */}
        <div ref={host} dir="ltr" data-testid="code-editor" className="h-[32rem]" />
      </div>
      {/* Tab indents inside the editor; CodeMirror lets the next Tab through after Escape. */}
      <p id={hintId} className="mt-2 text-xs text-ink-400">
        {t('editor.leave_hint')}
      </p>
      {module && (
        <label className="mt-3 flex items-center gap-2 text-xs text-ink-300">
          {t('editor.language')}
          {/* Names of programming languages: the same in every language. */}
          <select
            translate="no"
            value={language?.name ?? ''}
            onChange={(event) =>
              setLanguage(module.languages.find((entry) => entry.name === event.target.value) ?? null)
            }
            className="rounded-md border border-ink-700 bg-ink-900 px-2 py-1 text-ink-100"
          >
            <option value="">{t('editor.plain_text')}</option>
            {module.languages.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
