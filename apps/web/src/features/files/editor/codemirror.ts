/**
 * Everything CodeMirror: imported only through `import()` from the editor component, so the library lands in its
 * own lazy chunk and the file manager never loads it.
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  indentOnInput,
  LanguageDescription,
  syntaxHighlighting,
} from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { darkHighlightStyle, editorPalette } from '@/features/files/editor/dark-highlight';

export { languages };

/** The language mode for a file name (a filename pattern first, then the extension), or null for plain text. */
export const languageForFile = (filename: string): LanguageDescription | null =>
  LanguageDescription.matchFilename(languages, filename);

export interface EditorOptions {
  doc: string;
  readOnly: boolean;
  /** Ctrl/Cmd-S. */
  onSave: () => void;
  label: string;
  /** The id of the visible hint that Escape then Tab leaves the editor (its accessible description). */
  describedBy?: string;
}

export interface EditorHandle {
  getContent: () => string;
  /** Switches the highlighting; null is plain text. */
  setLanguage: (language: LanguageDescription | null) => Promise<void>;
  destroy: () => void;
}

const theme = EditorView.theme(
  {
    '&': { height: '100%', fontSize: '13px', backgroundColor: 'transparent' },
    '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
    '.cm-gutters': { backgroundColor: 'transparent', border: 'none', color: editorPalette.gutter },
    '.cm-activeLine': { backgroundColor: editorPalette.activeLine },
    '.cm-activeLineGutter': { backgroundColor: editorPalette.activeLineGutter },
    // CodeMirror's own focus outline is a dotted near-black line, invisible on this surface: the panel's ring.
    '&.cm-focused': { outline: '2px solid #38bdf8', outlineOffset: '-2px' },
  },
  { dark: true },
);

export function createEditor(parent: HTMLElement, options: EditorOptions): EditorHandle {
  const language = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        autocompletion(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        syntaxHighlighting(darkHighlightStyle),
        keymap.of([
          // First, so the browser's "save page" never opens.
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              options.onSave();
              return true;
            },
          },
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...searchKeymap,
          ...historyKeymap,
          ...foldKeymap,
          ...completionKeymap,
          indentWithTab,
        ]),
        EditorState.readOnly.of(options.readOnly),
        EditorView.editable.of(!options.readOnly),
        EditorView.contentAttributes.of({
          'aria-label': options.label,
          // Focusable read-only too, so a keyboard can reach and scroll a file it may only view (axe:
          // scrollable-region-focusable, which does not count a contenteditable as focusable).
          tabindex: '0',
          ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
        }),
        language.of([]),
        theme,
      ],
    }),
  });
  return {
    getContent: () => view.state.doc.toString(),
    setLanguage: async (description) => {
      const support = description ? await description.load() : [];
      view.dispatch({ effects: language.reconfigure(support) });
    },
    destroy: () => view.destroy(),
  };
}
