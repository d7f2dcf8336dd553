import { HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';

/**
 * The editor's own colours on the panel's darkest surface (ink-950): line numbers, the active line (translucent, so
 * the selection drawn under the text shows through) and its gutter cell. Each text colour keeps 4.5:1 on both.
 */
export const editorPalette = {
  background: '#090c14',
  activeLine: '#ffffff0a',
  activeLineGutter: '#1a2030',
  gutter: '#8e9ab0',
};

/**
 * Token colours for the panel's dark surface. CodeMirror's default style is made for white pages: its dark blue
 * keywords and names are close to unreadable on the editor's near-black background.
 */
export const darkHighlightStyle = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword, tags.operatorKeyword], color: '#c4b5fd' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: '#86efac' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.unit], color: '#fdba74' },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment, tags.docComment],
    color: '#94a3b8',
    fontStyle: 'italic',
  },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: '#7dd3fc' },
  { tag: [tags.definition(tags.variableName), tags.definition(tags.propertyName)], color: '#e2e8f0' },
  { tag: [tags.propertyName, tags.attributeName], color: '#93c5fd' },
  { tag: [tags.typeName, tags.className, tags.namespace, tags.tagName], color: '#fcd34d' },
  { tag: [tags.operator, tags.punctuation, tags.bracket, tags.separator], color: '#cbd5e1' },
  { tag: [tags.meta, tags.processingInstruction, tags.annotation], color: '#f9a8d4' },
  { tag: tags.heading, color: '#f8fafc', fontWeight: 'bold' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: 'bold' },
  { tag: tags.link, color: '#7dd3fc', textDecoration: 'underline' },
  { tag: tags.invalid, color: '#fca5a5' },
]);
