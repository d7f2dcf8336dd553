import { compileDoneEntry } from '@aerie/shared/eggs/done-matcher';
import { parse as parseYamlDocument } from 'yaml';
import type { EggConfig, EggConfigFile, EggDefinition, EggVariable } from './egg-definition';
import { type EggExport, eggExportSchema } from './egg-export.schema';
import { EggExportError, type EggExportIssue } from './egg-export-error';
import { fromPelican, isPelicanVersion } from './pelican-egg';

/** The largest egg file read, the panel's request body limit: the CLI and the API take the same files. */
export const MAX_EGG_EXPORT_BYTES = 1024 * 1024;

/**
 * How far YAML aliases may expand (the `yaml` package's `maxAliasCount`) before a document is refused, so a
 * "billion laughs" file of nested anchors cannot exhaust memory. Pelican never writes anchors.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `['variables', 2, 'env_variable']` → `variables[2].env_variable` */
const formatPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    const name = String(part);
    if (!/^\w+$/.test(name)) return `${out}[${JSON.stringify(name)}]`;
    return out ? `${out}.${name}` : name;
  }, '');

const toIssue = (issue: { path: readonly PropertyKey[]; message: string }): EggExportIssue => ({
  path: formatPath(issue.path),
  message: issue.message,
});

/**
 * Reads an uploaded or bundled egg file: JSON (PTDL_v1, PTDL_v2 or Pelican's PLCN), or else YAML as Pelican
 * exports it. Text that starts with `{` or `[` is JSON and never read as YAML. Throws `EggExportError` with a
 * message for the administrator.
 */
export function parseEggExportText(text: string): EggDefinition {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_EGG_EXPORT_BYTES) throw EggExportError.tooLarge(bytes, MAX_EGG_EXPORT_BYTES);
  // Files saved by some Windows editors start with a byte order mark, which JSON.parse refuses.
  const source = text.replace(/^\uFEFF/, '');
  return parseEggExport(/^\s*[[{]/.test(source) ? parseJson(source) : parseYaml(source));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw EggExportError.invalidJson((error as Error).message);
  }
}

function parseYaml(text: string): unknown {
  try {
    return parseYamlDocument(text, {
      version: '1.2',
      schema: 'core',
      maxAliasCount: MAX_YAML_ALIAS_COUNT,
      uniqueKeys: true,
      logLevel: 'error',
    });
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof ReferenceError && message.startsWith('Excessive alias count')) {
      throw EggExportError.invalidYaml(
        `its aliases expand too far, past the limit of ${MAX_YAML_ALIAS_COUNT}; anchors and aliases are not needed in an egg`,
      );
    }
    // The parser's message ends in a code frame; its first line names the problem and where it is.
    throw EggExportError.invalidYaml((message.split('\n')[0] ?? message).replace(/:$/, ''));
  }
}

/** Checks a parsed PTDL_v1, PTDL_v2 or Pelican PLCN_v1–v3 export and normalises it. Throws `EggExportError`. */
export function parseEggExport(json: unknown): EggDefinition {
  if (!isObject(json)) throw EggExportError.notAnObject();
  const version = isObject(json.meta) ? json.meta.version : undefined;
  const pelican = isPelicanVersion(version);
  if (!pelican && version !== 'PTDL_v1' && version !== 'PTDL_v2')
    throw EggExportError.unsupportedVersion(version);

  const parsed = eggExportSchema.safeParse(pelican ? fromPelican(json) : json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(toIssue);
    // A Pelican export without `startup` names its commands in `startup_commands`, taken from there.
    throw EggExportError.invalidEgg(
      pelican && json.startup === undefined
        ? issues.map((issue) =>
            issue.path === 'startup'
              ? { path: 'startup_commands', message: 'must name at least one startup command' }
              : issue,
          )
        : issues,
    );
  }

  const issues: EggExportIssue[] = [];
  const egg = normalise(parsed.data, issues);
  if (issues.length > 0) throw EggExportError.invalidEgg(issues);
  return egg;
}

function normalise(data: EggExport, issues: EggExportIssue[]): EggDefinition {
  return {
    version: data.meta.version,
    update_url: data.meta.update_url ?? null,
    exported_at: data.exported_at ?? null,
    uuid: data.uuid ?? null,
    name: data.name,
    author: data.author,
    description: data.description ?? null,
    features: data.features ?? [],
    docker_images: dockerImages(data, issues),
    file_denylist: (data.file_denylist ?? []).filter((pattern) => pattern !== ''),
    startup: data.startup,
    config: config(data.config, issues),
    scripts: {
      installation: {
        script: data.scripts.installation.script ?? '',
        container: data.scripts.installation.container,
        entrypoint: data.scripts.installation.entrypoint,
      },
    },
    variables: variables(data.variables ?? [], issues),
  };
}

/** PTDL_v2 and Pelican have a label → image map; PTDL_v1 a list (or one legacy `image`), each image its own label. */
function dockerImages(data: EggExport, issues: EggExportIssue[]): Record<string, string> {
  if (data.meta.version === 'PTDL_v1' && !data.docker_images) {
    const list = data.images ?? (data.image ? [data.image] : []);
    const images = Object.fromEntries(list.filter(Boolean).map((image) => [image, image]));
    if (Object.keys(images).length === 0)
      issues.push({ path: 'images', message: 'must name at least one image' });
    return images;
  }
  const images = data.docker_images ?? {};
  if (Object.keys(images).length === 0) {
    issues.push({ path: 'docker_images', message: 'must name at least one image' });
  }
  return images;
}

function config(raw: EggExport['config'], issues: EggExportIssue[]): EggConfig {
  const startup = raw.startup.value;
  return {
    files: configFiles(raw.files.value, issues),
    startup,
    done: doneEntries(startup.done, issues),
    strip_ansi: startup.strip_ansi === true,
    logs: raw.logs.value,
    stop: raw.stop,
    extends: raw.extends ?? null,
    source: { files: raw.files.source, startup: raw.startup.source, logs: raw.logs.source },
  };
}

function configFiles(
  files: Record<string, unknown>,
  issues: EggExportIssue[],
): Record<string, EggConfigFile> {
  const out: Record<string, EggConfigFile> = {};
  for (const [file, rule] of Object.entries(files)) {
    if (!isObject(rule) || typeof rule.parser !== 'string' || !isObject(rule.find)) {
      const path = formatPath(['config', 'files', file]);
      issues.push({ path, message: 'must have a parser name and a find object' });
      continue;
    }
    out[file] = { parser: rule.parser, find: rule.find };
  }
  return out;
}

/** Legacy eggs have one `done` string, newer ones a list; a `regex:` entry must compile. */
function doneEntries(done: unknown, issues: EggExportIssue[]): string[] {
  if (done === undefined || done === null) return [];
  const entries = typeof done === 'string' ? [done] : done;
  if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'string')) {
    issues.push({ path: 'config.startup.done', message: 'must be a string or a list of strings' });
    return [];
  }
  entries.forEach((entry, index) => {
    try {
      compileDoneEntry(entry);
    } catch (error) {
      const path = typeof done === 'string' ? 'config.startup.done' : `config.startup.done[${index}]`;
      issues.push({ path, message: `is not a valid regular expression (${(error as Error).message})` });
    }
  });
  return entries;
}

function variables(list: EggVariable[], issues: EggExportIssue[]): EggVariable[] {
  const seen = new Set<string>();
  list.forEach((variable, index) => {
    if (seen.has(variable.env_variable)) {
      issues.push({ path: `variables[${index}].env_variable`, message: `repeats ${variable.env_variable}` });
    }
    seen.add(variable.env_variable);
  });
  return list;
}
