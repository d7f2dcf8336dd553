/**
 * Builds public/locales/en/messages.json: every message text the shared packages define (the forms' checks, the
 * API's answers shown in flashes), so that they can be translated like the rest. Fixed texts are kept as they are;
 * a message made by a function (`laravelMessages.min('name', { min: 3 })`) becomes a template
 * (`The {{attribute}} must be at least {{min}} characters.`) that lib/translate-message.ts matches a shown message
 * against; the field names messages name are listed as attributes. English is the key and, here, the text.
 *
 * `npm run messages -w @aerie/web` writes the file; a web test fails while it is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// import.meta.dirname: the web tests run in jsdom, where import.meta.url is not a file URL.
const webRoot = join(import.meta.dirname, '..');
const sharedDir = join(webRoot, '../../packages/shared/src');
const webDir = join(webRoot, 'src');
export const messagesFile = join(webRoot, 'public/locales/en/messages.json');

export interface MessagesCatalogue {
  texts: Record<string, string>;
  templates: Record<string, string>;
  attributes: Record<string, string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A stand-in argument that writes itself as `{{name}}`, its properties as `{{property}}`, a join as itself. */
function placeholder(name: string): unknown {
  const text = `{{${name}}}`;
  return new Proxy(
    {},
    {
      get: (_target, property) => {
        if (property === Symbol.toPrimitive || property === 'toString') return () => text;
        if (property === 'join') return () => text;
        return typeof property === 'string' ? `{{${property}}}` : undefined;
      },
    },
  );
}

/** The parameter names of a message function, `a` read as the attribute it always is. */
function parameterNames(fn: (...args: never[]) => unknown): string[] {
  const source = String(fn);
  const list =
    /^\s*(?:function\s*\w*\s*)?\(([^)]*)\)/.exec(source)?.[1] ?? /^\s*(\w+)\s*=>/.exec(source)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim().replace(/=.*$/, ''))
    .filter(Boolean)
    .map((name) => (name === 'a' || name === 'attribute' ? 'attribute' : name));
}

const sorted = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export async function buildMessagesCatalogue(): Promise<MessagesCatalogue> {
  const texts: Record<string, string> = {};
  const templates: Record<string, string> = {};
  const attributes: Record<string, string> = {};
  const files = sourceFiles(sharedDir);
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    if (!/export const \w+(Messages|AttributeNames) = /.test(source)) continue;
    const module = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'object' || value === null) continue;
      if (name.endsWith('AttributeNames')) {
        for (const attribute of Object.values(value))
          if (typeof attribute === 'string') attributes[attribute] = attribute;
        continue;
      }
      if (!name.endsWith('Messages')) continue;
      for (const message of Object.values(value)) {
        if (typeof message === 'string') texts[message] = message;
        else if (typeof message === 'function') {
          const template = String(message(...parameterNames(message).map(placeholder)));
          templates[template] = template;
        }
      }
    }
  }
  // The field names messages are made with: the forms' own (`text('first name')`, `laravelMessages.max('alias', …)`)
  // and the API's (a body's snake_case keys, shown with spaces as Laravel does).
  const named = /\b(?:text|required|field|[a-zA-Z]*Messages\.[a-zA-Z_]+)\(\s*'([a-z][a-z0-9 _]*)'/g;
  for (const file of [...sourceFiles(webDir), ...files]) {
    for (const match of readFileSync(file, 'utf8').matchAll(named)) {
      const attribute = (match[1] ?? '').replace(/_/g, ' ');
      attributes[attribute] = attribute;
    }
  }
  const bodyKey =
    /^\s{2}([a-z][a-z0-9_]*)\??:\s*(?:z\.|required|nullable|optional|laravel|lengthBetween|\w+\()/gm;
  for (const file of files.filter((path) => /-bodies\.ts$/.test(path))) {
    for (const match of readFileSync(file, 'utf8').matchAll(bodyKey)) {
      const attribute = (match[1] ?? '').replace(/_/g, ' ');
      attributes[attribute] = attribute;
    }
  }
  return { texts: sorted(texts), templates: sorted(templates), attributes: sorted(attributes) };
}

export const serialiseCatalogue = (catalogue: MessagesCatalogue) => `${JSON.stringify(catalogue, null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(messagesFile, serialiseCatalogue(await buildMessagesCatalogue()));
  console.log(`wrote ${messagesFile}`);
}
