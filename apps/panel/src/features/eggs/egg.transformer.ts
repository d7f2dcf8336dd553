import type { Db } from '@aerie/panel/db/database';
import { toWireDate } from '@aerie/panel/db/dialect';
import { groupBy, type Transformer } from '@aerie/panel/http/application/transformer';
import {
  type Egg,
  type EggVariable,
  findEggs,
  findNests,
  listEggVariables,
  parseJsonText,
} from './eggs.repository';

/** Laravel's JSON date of a raw model (egg variables): UTC with microseconds and `Z`. */
const toModelDate = (date: Date) => `${date.toISOString().slice(0, 23)}000Z`;

/** An object block of the egg's config (files, startup, logs); an empty or missing `files` is `{}`. */
const objectOrEmpty = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.keys(value).length > 0 ? value : {};

/** `egg_variable`: the raw row as Laravel serialises a model. */
export const eggVariableTransformer: Transformer<EggVariable> = {
  object: 'egg_variable',
  attributes: (variable) => ({
    id: variable.id,
    egg_id: variable.eggId,
    name: variable.name,
    description: variable.description,
    env_variable: variable.envVariable,
    default_value: variable.defaultValue,
    user_viewable: variable.userViewable,
    user_editable: variable.userEditable,
    rules: variable.rules,
    created_at: toModelDate(variable.createdAt),
    updated_at: toModelDate(variable.updatedAt),
  }),
};

/**
 * The `config` and `script` includes: Fractal items without a resource key, so their `object` is null upstream.
 * The renderer copies `object` as it is.
 */
const untyped = null as unknown as string;

const inheritedConfigTransformer: Transformer<Record<string, unknown>> = {
  object: untyped,
  attributes: (config) => config,
};

const inheritedScriptTransformer: Transformer<Record<string, unknown>> = {
  object: untyped,
  attributes: (script) => script,
};

/**
 * `egg` of the Application API (reference §3.7): `config` and `script` are the egg's own values (`extends`
 * names the egg it inherits from); the `config` / `script` includes resolve the inherited ones.
 */
export const eggTransformer: Transformer<Egg> = {
  object: 'egg',
  attributes: (egg) => ({
    id: egg.id,
    uuid: egg.uuid,
    name: egg.name,
    nest: egg.nestId,
    author: egg.author,
    description: egg.description,
    docker_image: Object.values(egg.dockerImages)[0] ?? '',
    docker_images: egg.dockerImages,
    config: {
      files: objectOrEmpty(parseJsonText(egg.configFiles, {})),
      startup: parseJsonText(egg.configStartup, null),
      stop: egg.configStop,
      logs: parseJsonText(egg.configLogs, null),
      file_denylist: egg.fileDenylist,
      extends: egg.configFrom,
    },
    startup: egg.startup,
    script: {
      privileged: egg.scriptIsPrivileged,
      install: egg.scriptInstall,
      entry: egg.scriptEntry,
      container: egg.scriptContainer,
      extends: egg.copyScriptFrom,
    },
    created_at: toWireDate(egg.createdAt),
    updated_at: toWireDate(egg.updatedAt),
  }),
  includes: {
    nest: {
      gate: 'nests',
      renders: 'nest',
      async load(db, eggs) {
        const nests = await findNests(db, [...new Set(eggs.map((egg) => egg.nestId))]);
        const byId = new Map(nests.map((nest) => [nest.id, nest]));
        return new Map(eggs.map((egg) => [egg, byId.get(egg.nestId) ?? null]));
      },
    },
    variables: {
      gate: 'eggs',
      renders: eggVariableTransformer,
      async load(db, eggs) {
        const byEgg = groupBy(
          await listEggVariables(
            db,
            eggs.map((egg) => egg.id),
          ),
          (variable) => variable.eggId,
        );
        return new Map(eggs.map((egg) => [egg, byEgg.get(egg.id) ?? []]));
      },
    },
    config: {
      gate: null,
      renders: inheritedConfigTransformer,
      async load(db, eggs) {
        const parents = await parentsOf(db, eggs, (egg) => egg.configFrom);
        return new Map(
          eggs.map((egg) => {
            if (egg.configFrom === null) return [egg, null];
            const parent = parents.get(egg.configFrom);
            // Each block is the egg's own unless it has none, then its parent's (Egg::inherit_config_*).
            const own = <K extends keyof Egg>(key: K) => egg[key] ?? parent?.[key] ?? null;
            return [
              egg,
              {
                files: parseJsonText(own('configFiles') as string | null, null),
                startup: parseJsonText(own('configStartup') as string | null, null),
                stop: own('configStop'),
                logs: parseJsonText(own('configLogs') as string | null, null),
              },
            ];
          }),
        );
      },
    },
    script: {
      gate: null,
      renders: inheritedScriptTransformer,
      async load(db, eggs) {
        const parents = await parentsOf(db, eggs, (egg) => egg.copyScriptFrom);
        return new Map(
          eggs.map((egg) => {
            if (egg.copyScriptFrom === null) return [egg, null];
            const parent = parents.get(egg.copyScriptFrom);
            // Egg::copy_script_*: the install script is the egg's own unless empty; entry and container the parent's.
            return [
              egg,
              {
                privileged: egg.scriptIsPrivileged,
                install: egg.scriptInstall ?? parent?.scriptInstall ?? null,
                entry: parent ? parent.scriptEntry : egg.scriptEntry,
                container: parent ? parent.scriptContainer : egg.scriptContainer,
              },
            ];
          }),
        );
      },
    },
  },
};

async function parentsOf(db: Db, eggs: Egg[], parentId: (egg: Egg) => number | null) {
  const ids = [...new Set(eggs.map(parentId).filter((id): id is number => id !== null))];
  return new Map((await findEggs(db, ids)).map((egg) => [egg.id, egg]));
}
