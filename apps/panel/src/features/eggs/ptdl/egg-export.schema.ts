import { z } from 'zod';
import { pelicanVersions } from './pelican-egg';

/**
 * The PTDL_v1 / PTDL_v2 export as found in the wild (and a Pelican export once `fromPelican` reshaped it). Lenient where real exports differ (v1 flags as 0/1 or
 * "1", rules as a list, config blocks as objects instead of JSON text), strict where a value is unusable.
 * Every message reads after the field path, e.g. `name is missing`.
 */
const absent = (input: unknown) => input === undefined || input === null;

const text = () =>
  z
    .string({ error: (issue) => (absent(issue.input) ? 'is missing' : 'must be a string') })
    .refine((value) => value.trim() !== '', 'must not be empty');

const optionalText = () => z.string({ error: 'must be a string or null' }).nullish();

/** Laravel-style booleans, as v1 exports wrote them; missing means false. */
const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], {
      error: 'must be true or false',
    })
    .nullish()
    .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

const stringList = (what: string) =>
  z.array(z.string({ error: `must only hold ${what}` }), { error: 'must be a list' });

/** A parsed config block and the exact text it came from. */
interface JsonBlock {
  source: string;
  value: Record<string, unknown>;
}

/** A config block: JSON text in every export we know, an object in a few hand-written ones. */
const jsonBlock = () =>
  z
    .union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be JSON text or an object' })
    .nullish()
    .transform((value, ctx): JsonBlock => {
      if (absent(value) || (typeof value === 'string' && value.trim() === ''))
        return { source: '{}', value: {} };
      if (typeof value !== 'string') return { source: JSON.stringify(value, null, 4), value };
      try {
        const parsed: unknown = JSON.parse(value);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
          return { source: value, value: parsed as Record<string, unknown> };
        }
        ctx.addIssue('must hold a JSON object');
      } catch (error) {
        ctx.addIssue(`is not valid JSON (${(error as Error).message})`);
      }
      return z.NEVER;
    });

/** PHP's `\w` as Pterodactyl validates it, and the names the daemon sets itself. */
const ENV_NAME = /^\w{1,191}$/;
export const reservedEnvVariables = [
  'SERVER_MEMORY',
  'SERVER_IP',
  'SERVER_PORT',
  'ENV',
  'HOME',
  'USER',
  'STARTUP',
  'SERVER_UUID',
  'UUID',
];

const variableSchema = z.object(
  {
    name: text(),
    description: optionalText().transform((value) => value ?? ''),
    env_variable: text()
      .refine((value) => ENV_NAME.test(value), 'must be 1 to 191 letters, digits or underscores')
      .refine((value) => !reservedEnvVariables.includes(value), 'is a name the daemon sets itself'),
    default_value: z
      .union([z.string(), z.number()], { error: 'must be a string' })
      .nullish()
      .transform((value) => (absent(value) ? '' : String(value))),
    user_viewable: flag(),
    user_editable: flag(),
    rules: z
      .union([z.string(), stringList('rule names')], {
        error: 'must be a rule string such as required|string',
      })
      .nullish()
      .transform((value) => (Array.isArray(value) ? value.join('|') : (value ?? ''))),
    field_type: optionalText().transform((value) => value || 'text'),
  },
  { error: 'must be an object' },
);

export const eggExportSchema = z.object({
  meta: z.object({
    version: z.enum(['PTDL_v1', 'PTDL_v2', ...pelicanVersions]),
    update_url: optionalText(),
  }),
  exported_at: optionalText(),
  uuid: optionalText(),
  name: text(),
  author: text(),
  description: optionalText(),
  features: stringList('feature names').nullish(),
  docker_images: z
    .record(z.string(), z.string({ error: 'must map labels to image names' }), { error: 'must be an object' })
    .nullish(),
  images: stringList('image names').nullish(),
  image: optionalText(),
  file_denylist: stringList('patterns').nullish(),
  startup: text(),
  config: z.object(
    {
      files: jsonBlock(),
      startup: jsonBlock(),
      logs: jsonBlock(),
      stop: text(),
      extends: optionalText(),
    },
    { error: (issue) => (absent(issue.input) ? 'is missing' : 'must be an object') },
  ),
  scripts: z.object(
    {
      installation: z.object(
        {
          script: optionalText(),
          container: text(),
          entrypoint: text(),
        },
        { error: (issue) => (absent(issue.input) ? 'is missing' : 'must be an object') },
      ),
    },
    { error: (issue) => (absent(issue.input) ? 'is missing' : 'must be an object') },
  ),
  variables: z.array(variableSchema, { error: 'must be a list' }).nullish(),
});

export type EggExport = z.output<typeof eggExportSchema>;
