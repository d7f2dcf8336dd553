import { compileDoneEntry } from '@aerie/shared/eggs/done-matcher';
import type { EggConfig, EggConfigFile, EggDefinition, EggVariable } from './egg-definition';
import { type EggExport, eggExportSchema } from './egg-export.schema';
import { EggExportError, type EggExportIssue } from './egg-export-error';

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

/** Reads an uploaded or bundled egg file. Throws `EggExportError` with a message for the administrator. */
export function parseEggExportText(text: string): EggDefinition {
  let json: unknown;
  try {
    // Files saved by some Windows editors start with a byte order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw EggExportError.invalidJson((error as Error).message);
  }
  return parseEggExport(json);
}

/** Checks a parsed PTDL_v1 or PTDL_v2 export and normalises it. Throws `EggExportError`. */
export function parseEggExport(json: unknown): EggDefinition {
  if (!isObject(json)) throw EggExportError.notAnObject();
  const version = isObject(json.meta) ? json.meta.version : undefined;
  if (version !== 'PTDL_v1' && version !== 'PTDL_v2') throw EggExportError.unsupportedVersion(version);

  const parsed = eggExportSchema.safeParse(json);
  if (!parsed.success) throw EggExportError.invalidEgg(parsed.error.issues.map(toIssue));

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

/** PTDL_v2 has a label → image map; PTDL_v1 a list (or one legacy `image`), each image its own label. */
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
