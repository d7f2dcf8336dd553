import { z } from 'zod';
import { DOCKER_IMAGE } from '../servers/server-application-bodies';
import { laravelBoolean, nullableText, requiredText } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableString, requiredString, rule } from '../validation/rules';
import { compileDoneEntry } from './done-matcher';
import { unknownVariableRule } from './egg-variable-rule-names';

/**
 * Bodies of the Application API's nest and egg writes (Aerie's: upstream has these in its admin pages only):
 * `POST/PATCH nests/{id}`, `PATCH nests/{id}/eggs/{egg}` and the egg variables under it. Messages are Laravel's
 * rule names (worded by `toValidationErrors`) or, where upstream answers with its own sentence, that sentence.
 */

const missing = (value: unknown) => value === undefined || value === null;

/** Trims a string and turns a blank one into null (the egg body is read untrimmed, for its scripts). */
const trimmed = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    return text === '' ? null : text;
  }, schema);

export const eggMessages = {
  nestHasServers: 'Cannot delete a nest that contains active servers.',
  eggHasServers: 'Cannot delete an Egg with active servers attached to it from the Panel.',
  eggHasChildren: 'This Egg has children. Please delete the children before deleting this Egg.',
  badRule: (name: string) => `The validation rule "${name}" is not a valid rule for this application.`,
  reservedEnv: (name: string) => `Cannot use the protected name ${name} for this environment variable.`,
  badDone: (entry: string) => `The done string "${entry}" is not a valid regular expression.`,
} as const;

/** POST /nests and PATCH /nests/{id} (the whole nest each time); the author is the calling admin's email. */
export const nestBodySchema = z.object({
  name: requiredText(1, 191),
  description: nullableString(),
});
export type NestBody = z.output<typeof nestBodySchema>;

const dockerImage = requiredString().max(191, rule('max')).regex(DOCKER_IMAGE, rule('regex'));

/**
 * `config_startup`: the done string, or a list of them (a `regex:` entry must compile); stored as the egg's
 * `{"done": …}` start-up configuration, its other keys kept.
 */
const doneEntries = z
  .union([z.string(), z.array(z.string({ error: 'string' satisfies LaravelRule }))], {
    error: 'string' satisfies LaravelRule,
  })
  .nullish()
  .superRefine((value, ctx) => {
    for (const entry of typeof value === 'string' ? [value] : (value ?? [])) {
      try {
        compileDoneEntry(entry);
      } catch {
        ctx.addIssue({ code: 'custom', message: eggMessages.badDone(entry) });
      }
    }
  });

/**
 * PATCH /nests/{id}/eggs/{egg}: every field optional, the ones sent are changed. Read without trimming (scripts
 * and done strings keep their spaces); the text fields trim themselves.
 */
export const eggUpdateBodySchema = z.object({
  name: trimmed(requiredText(1, 191)).optional(),
  description: trimmed(nullableString()),
  docker_images: z
    .record(z.string(), dockerImage, {
      error: (issue) => (missing(issue.input) ? 'required' : 'array') satisfies LaravelRule,
    })
    .refine((images) => Object.keys(images).length > 0, rule('required'))
    .optional(),
  startup: trimmed(requiredString()).optional(),
  config_stop: trimmed(nullableText(191)),
  config_startup: doneEntries,
  file_denylist: z.array(z.string({ error: 'string' satisfies LaravelRule }), { error: 'array' }).nullish(),
  script_install: nullableString(),
  script_container: trimmed(requiredText(1, 191)).optional(),
  script_entry: trimmed(requiredText(1, 191)).optional(),
  script_is_privileged: laravelBoolean().optional(),
  features: z.array(z.string({ error: 'string' satisfies LaravelRule }), { error: 'array' }).nullish(),
});
export type EggUpdateBody = z.output<typeof eggUpdateBodySchema>;

/** An environment variable name: upper-case letters, digits and underscores, not starting with a digit. */
export const ENV_VARIABLE = /^[A-Z_][A-Z0-9_]*$/;

/** Names the daemon or panel sets itself (upstream's EggVariable::RESERVED_ENV_NAMES, plus every `P_SERVER_*`). */
export const reservedEnvNames = [
  'SERVER_MEMORY',
  'SERVER_IP',
  'SERVER_PORT',
  'ENV',
  'HOME',
  'USER',
  'STARTUP',
  'SERVER_UUID',
  'UUID',
] as const;

export const isReservedEnvName = (name: string) =>
  (reservedEnvNames as readonly string[]).includes(name) || name.startsWith('P_SERVER_');

/** POST /nests/{id}/eggs/{egg}/variables and PATCH …/variables/{variable} (the whole variable each time). */
export const eggVariableBodySchema = z.object({
  name: requiredText(1, 191),
  description: nullableString(),
  env_variable: requiredText(1, 191)
    .regex(ENV_VARIABLE, rule('regex'))
    .superRefine((value, ctx) => {
      if (isReservedEnvName(value)) ctx.addIssue({ code: 'custom', message: eggMessages.reservedEnv(value) });
    }),
  default_value: nullableString(),
  user_viewable: laravelBoolean().optional(),
  user_editable: laravelBoolean().optional(),
  rules: nullableString().superRefine((value, ctx) => {
    const unknown = value ? unknownVariableRule(value) : null;
    if (unknown !== null) ctx.addIssue({ code: 'custom', message: eggMessages.badRule(unknown) });
  }),
});
export type EggVariableBody = z.output<typeof eggVariableBodySchema>;
