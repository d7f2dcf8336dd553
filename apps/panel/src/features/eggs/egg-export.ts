import type { Db } from '@aerie/panel/db/database';
import { type Egg, findEggs, listEggVariables } from './eggs.repository';

/**
 * The egg as Pterodactyl's EggExporterService writes it (PTDL_v2): config blocks as their JSON texts, the
 * configuration and install script inherited from `config_from` / `copy_script_from` when the egg has none of
 * its own, variables without ids and dates plus `field_type: "text"`. The uuid and `script_is_privileged` are
 * not part of the format.
 */
export async function buildEggExport(db: Db, egg: Egg, now: Date): Promise<Record<string, unknown>> {
  const parentIds = [egg.configFrom, egg.copyScriptFrom].filter((id): id is number => id !== null);
  const parents = new Map((await findEggs(db, parentIds)).map((parent) => [parent.id, parent]));
  const configParent = egg.configFrom === null ? undefined : parents.get(egg.configFrom);
  const scriptParent = egg.copyScriptFrom === null ? undefined : parents.get(egg.copyScriptFrom);
  const inherit = <K extends keyof Egg>(key: K) => egg[key] ?? configParent?.[key] ?? null;
  const variables = await listEggVariables(db, [egg.id]);
  return {
    _comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PTERODACTYL PANEL - PTERODACTYL.IO',
    meta: { version: 'PTDL_v2', update_url: egg.updateUrl },
    exported_at: `${now.toISOString().slice(0, 19)}+00:00`,
    name: egg.name,
    author: egg.author,
    description: egg.description,
    features: egg.features,
    docker_images: egg.dockerImages,
    file_denylist: (inherit('fileDenylist') ?? []).filter((pattern) => pattern !== ''),
    startup: egg.startup,
    config: {
      files: inherit('configFiles'),
      startup: inherit('configStartup'),
      logs: inherit('configLogs'),
      stop: inherit('configStop'),
    },
    scripts: {
      installation: {
        script: egg.scriptInstall ?? scriptParent?.scriptInstall ?? null,
        container: scriptParent ? scriptParent.scriptContainer : egg.scriptContainer,
        entrypoint: scriptParent ? scriptParent.scriptEntry : egg.scriptEntry,
      },
    },
    variables: variables.map((variable) => ({
      name: variable.name,
      description: variable.description,
      env_variable: variable.envVariable,
      default_value: variable.defaultValue,
      user_viewable: variable.userViewable,
      user_editable: variable.userEditable,
      rules: variable.rules,
      field_type: 'text',
    })),
  };
}

/** PHP's `json_encode(…, JSON_PRETTY_PRINT)`: four-space indent, slashes escaped. */
export const phpPrettyJson = (value: unknown) => JSON.stringify(value, null, 4).replace(/\//g, '\\/');

/**
 * `egg-<Str::kebab(name)>.json`, as upstream names the download, reduced to characters safe in the header
 * (`Minecraft Java` → `egg-minecraft-java.json`).
 */
export function eggExportFileName(name: string): string {
  const words = name
    .replace(/\s+/gu, ' ')
    .replace(/(^|\s)(\S)/gu, (_match, space, letter: string) => space + letter.toUpperCase());
  const kebab = words
    .replace(/\s+/gu, '')
    .replace(/(.)(?=[A-Z])/gu, '$1-')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '');
  return `egg-${kebab || 'export'}.json`;
}
