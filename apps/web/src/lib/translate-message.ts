/**
 * A message the shared packages wrote in English (a form's check, the API's answer in a flash) in the page's
 * language, from the `messages` namespace (scripts/messages-catalogue.ts): a fixed text is looked up as it is; a
 * made one is matched against the templates (the most specific first) and rebuilt from the translated template, its
 * field name translated too. Anything unknown (a game's output, a daemon's error) stays as it was.
 */
export interface MessagesNamespace {
  texts?: Record<string, string>;
  templates?: Record<string, string>;
  attributes?: Record<string, string>;
}

interface CompiledTemplate {
  pattern: RegExp;
  names: string[];
  translated: string;
  /** How much of the template is its own text: the longer, the more specific. */
  literal: number;
}

/** Messages are short; anything longer is not one of ours and is not matched at all (bounded work). */
const MAX_MESSAGE_LENGTH = 1000;

const compiled = new WeakMap<object, CompiledTemplate[]>();

function compile(templates: Record<string, string>): CompiledTemplate[] {
  const list = Object.entries(templates).map(([english, translated]) => {
    const names: string[] = [];
    const source = english
      .split(/(\{\{\w+\}\})/)
      .map((part) => {
        const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '(.+?)';
      })
      .join('');
    return {
      pattern: new RegExp(`^${source}$`, 's'),
      names,
      translated,
      literal: english.replace(/\{\{\w+\}\}/g, '').length,
    };
  });
  // "must be at least {{min}} characters." before "must be at least {{min}}.": the longer literal wins.
  return list.sort((a, b) => b.literal - a.literal);
}

export function translateMessage(message: string, catalogue: MessagesNamespace | undefined): string {
  if (!catalogue || message.length > MAX_MESSAGE_LENGTH) return message;
  const fixed = catalogue.texts?.[message];
  if (fixed) return fixed;
  const templates = catalogue.templates;
  if (!templates) return message;
  let list = compiled.get(templates);
  if (!list) {
    list = compile(templates);
    compiled.set(templates, list);
  }
  for (const template of list) {
    const match = template.pattern.exec(message);
    if (!match) continue;
    const values = new Map(template.names.map((name, index) => [name, match[index + 1] ?? '']));
    return template.translated.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
      const value = values.get(name);
      if (value === undefined) return whole;
      return name === 'attribute' ? (catalogue.attributes?.[value] ?? value) : value;
    });
  }
  return message;
}
