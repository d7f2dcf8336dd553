/**
 * Pelican Panel's egg exports (`PLCN_v1` to `PLCN_v3`, JSON or YAML) brought into the PTDL_v2 shape the export
 * schema reads. Pelican writes the same fields as PTDL_v2 with these differences:
 * - `startup_commands` (PLCN_v3), a name → command map, instead of one `startup`: the first command is kept;
 * - config blocks and install-script fields as YAML objects rather than JSON text (the schema reads both);
 * - an empty PHP array is dumped as `{  }` (or `[]`), so an empty list may be a map and an empty map a list;
 * - variables carry a `sort`, and YAML gives their defaults as numbers or booleans;
 * - config-file placeholders under Pelican's names (`{{server.allocations.default.port}}`,
 *   `{{server.environment.X}}`), which are renamed to the Pterodactyl names the panel fills in;
 * - `tags`, `image` (the egg's icon as a data URL) and `_comment`, which the panel does not keep.
 */
export const pelicanVersions = ['PLCN_v1', 'PLCN_v2', 'PLCN_v3'] as const;
export type PelicanVersion = (typeof pelicanVersions)[number];

export const isPelicanVersion = (version: unknown): version is PelicanVersion =>
  (pelicanVersions as readonly unknown[]).includes(version);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isEmptyMap = (value: unknown) => isObject(value) && Object.keys(value).length === 0;
const isEmptyList = (value: unknown) => Array.isArray(value) && value.length === 0;

/** Pelican's placeholder names (its importer's UPGRADE_VARIABLES, reversed) → the Pterodactyl names. */
const PTERODACTYL_PLACEHOLDERS: [string, string][] = [
  ['server.allocations.default.ip', 'server.build.default.ip'],
  ['server.allocations.default.port', 'server.build.default.port'],
  ['server.build.memory_limit', 'server.build.memory'],
  ['server.environment.', 'server.build.env.'],
];

const renamePlaceholders = (text: string): string =>
  text.replace(/\{\{(\s*)([\w.-]+)(\s*)\}\}/g, (whole, before: string, key: string, after: string) => {
    for (const [pelican, pterodactyl] of PTERODACTYL_PLACEHOLDERS) {
      const renamed =
        key === pelican || (pelican.endsWith('.') && key.startsWith(pelican))
          ? pterodactyl + key.slice(pelican.length)
          : undefined;
      if (renamed) return `{{${before}${renamed}${after}}}`;
    }
    return whole;
  });

/** Every string value in a parsed block (or the block's JSON text) with the placeholders renamed. */
const renameDeep = (value: unknown): unknown => {
  if (typeof value === 'string') return renamePlaceholders(value);
  if (Array.isArray(value)) return value.map(renameDeep);
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renameDeep(item)]));
  }
  return value;
};

/** A config block: an object, JSON text, or an empty PHP array written as `[]` / `"[]"`. */
const configBlock = (value: unknown): unknown => {
  if (isEmptyList(value)) return {};
  if (typeof value === 'string') return value.trim() === '[]' ? '{}' : value;
  return value;
};

/** The first command of `startup_commands` when the export has no `startup` string of its own. */
function startupOf(egg: Record<string, unknown>): unknown {
  if (typeof egg.startup === 'string' && egg.startup.trim() !== '') return egg.startup;
  const commands = egg.startup_commands;
  if (!isObject(commands)) return egg.startup;
  return Object.values(commands).find((command) => typeof command === 'string' && command.trim() !== '');
}

/** Variables in Pelican's display order (`sort`), their YAML-typed defaults as the strings Pelican stores. */
function variablesOf(list: unknown): unknown {
  if (isEmptyMap(list) || list === null || list === undefined) return [];
  if (!Array.isArray(list)) return list;
  const sortOf = (variable: unknown) =>
    isObject(variable) && typeof variable.sort === 'number' ? variable.sort : Number.POSITIVE_INFINITY;
  return list
    .map((variable, index) => ({ variable, index }))
    .sort((a, b) => sortOf(a.variable) - sortOf(b.variable) || a.index - b.index)
    .map(({ variable }) => {
      if (!isObject(variable) || typeof variable.default_value !== 'boolean') return variable;
      return { ...variable, default_value: variable.default_value ? '1' : '0' };
    });
}

/**
 * The Pelican export as a PTDL_v2-shaped object (its `meta.version` kept), for the export schema to check.
 * Fields it does not recognise are passed on unchanged, so the schema reports them as for any export.
 */
export function fromPelican(egg: Record<string, unknown>): Record<string, unknown> {
  const { _comment, tags, image, startup_commands, ...rest } = egg;
  const config = isObject(egg.config)
    ? {
        ...egg.config,
        files: renameDeep(configBlock(egg.config.files)),
        startup: configBlock(egg.config.startup),
        logs: configBlock(egg.config.logs),
      }
    : egg.config;
  return {
    ...rest,
    features: isEmptyMap(egg.features) ? [] : egg.features,
    docker_images: isEmptyList(egg.docker_images) ? {} : egg.docker_images,
    file_denylist: isEmptyMap(egg.file_denylist) ? [] : egg.file_denylist,
    startup: startupOf(egg),
    config,
    variables: variablesOf(egg.variables),
  };
}
