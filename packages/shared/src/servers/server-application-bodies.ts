import { z } from 'zod';
import {
  laravelBoolean,
  nullableInteger,
  present,
  presentNullableInteger,
  requiredInteger,
  requiredNumber,
  requiredText,
} from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableString, requiredString, rule } from '../validation/rules';

/**
 * Bodies of the Application API's server routes (reference application API §3.5, §4.1), with Laravel's
 * semantics: numbers may come as numeric strings (billing modules send them), booleans as 0/1, and `present`
 * fields must be sent even when null.
 */

const missing = (value: unknown) => value === undefined || value === null;

/** `environment`: env name → value; a PHP empty list `[]` is an empty map. */
const environment = present(
  z.preprocess(
    (value) => (Array.isArray(value) && value.length === 0 ? {} : value),
    z.record(z.string(), z.unknown(), { error: 'array' satisfies LaravelRule }),
  ),
);

export const DOCKER_IMAGE = /^~?[\w./\-:@ ]*$/;
const THREADS = /^[0-9-,]+$/;

const dockerImage = requiredString().max(191, rule('max')).regex(DOCKER_IMAGE, rule('regex'));
const threads = z
  .string({ error: 'regex' satisfies LaravelRule })
  .regex(THREADS, rule('regex'))
  .nullish();
const externalId = z
  .string({ error: 'string' satisfies LaravelRule })
  .refine((value) => value.length >= 1 && value.length <= 191, {
    error: 'between',
    params: { min: 1, max: 191 },
  })
  .nullish();

const limits = z.object(
  {
    memory: requiredNumber({ min: 0 }),
    swap: requiredNumber({ min: -1 }),
    disk: requiredNumber({ min: 0 }),
    io: requiredNumber({ min: 10, max: 1000 }),
    cpu: requiredNumber({ min: 0 }),
    threads,
  },
  { error: (issue) => (missing(issue.input) ? 'required' : 'array') satisfies LaravelRule },
);

const featureLimits = z.object(
  {
    databases: presentNullableInteger({ min: 0 }),
    allocations: nullableInteger({ min: 0 }),
    backups: presentNullableInteger({ min: 0 }),
  },
  { error: (issue) => (missing(issue.input) ? 'required' : 'array') satisfies LaravelRule },
);

const idList = z.array(requiredInteger({ min: 1 }), { error: 'array' satisfies LaravelRule });

/** POST /api/application/servers */
export const createServerBodySchema = z
  .object({
    external_id: externalId,
    name: requiredText(1, 191),
    description: nullableString(),
    user: requiredInteger(),
    egg: requiredInteger(),
    docker_image: dockerImage,
    startup: requiredString(),
    environment,
    skip_scripts: laravelBoolean().optional(),
    oom_disabled: laravelBoolean().optional(),
    start_on_completion: laravelBoolean().optional(),
    limits,
    feature_limits: featureLimits,
    allocation: z
      .object(
        { default: requiredInteger().optional(), additional: idList.optional() },
        { error: 'array' satisfies LaravelRule },
      )
      .nullish(),
    deploy: z
      .object(
        {
          locations: present(idList),
          dedicated_ip: z.unknown(),
          port_range: present(
            z.array(z.string({ error: 'string' satisfies LaravelRule }), { error: 'array' }),
          ),
        },
        { error: 'required' satisfies LaravelRule },
      )
      .nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.deploy) {
      if (body.deploy.dedicated_ip === undefined || body.deploy.dedicated_ip === null) {
        ctx.addIssue({ code: 'custom', path: ['deploy', 'dedicated_ip'], message: 'required' });
      }
      return;
    }
    if (body.allocation?.default === undefined) {
      ctx.addIssue({ code: 'custom', path: ['allocation', 'default'], message: 'required' });
    }
  });

export type CreateServerBody = z.output<typeof createServerBodySchema>;

/** PATCH /api/application/servers/{id}/details */
export const serverDetailsBodySchema = z.object({
  external_id: externalId,
  name: requiredText(1, 191),
  user: requiredInteger(),
  description: nullableString(),
});

const legacyLimit = (bounds: { min?: number; max?: number }) => requiredNumber(bounds).optional();

/**
 * PATCH /api/application/servers/{id}/build: limits either in `limits` or, for billing modules, as the legacy
 * top-level fields (each `required_without:limits`).
 */
export const serverBuildBodySchema = z
  .object({
    allocation: requiredInteger(),
    oom_disabled: laravelBoolean().optional(),
    limits: limits.optional(),
    memory: legacyLimit({ min: 0 }),
    swap: legacyLimit({ min: -1 }),
    io: legacyLimit({ min: 10, max: 1000 }),
    cpu: legacyLimit({ min: 0 }),
    disk: legacyLimit({ min: 0 }),
    threads,
    add_allocations: idList.optional(),
    remove_allocations: idList.optional(),
    feature_limits: featureLimits,
  })
  .superRefine((body, ctx) => {
    if (body.limits) return;
    for (const field of ['memory', 'swap', 'io', 'cpu', 'disk'] as const) {
      if (body[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'required' });
    }
  });

export type ServerBuildBody = z.output<typeof serverBuildBodySchema>;

/** PATCH /api/application/servers/{id}/startup */
export const serverStartupBodySchema = z.object({
  startup: requiredString(),
  environment,
  egg: requiredInteger(),
  image: dockerImage,
  skip_scripts: present(laravelBoolean()),
});

export type ServerStartupBody = z.output<typeof serverStartupBodySchema>;

/** Laravel's attribute names of the details and build requests (reference §3.5); creation names none. */
export const serverAttributeNames = {
  user: 'User ID',
  name: 'Server Name',
  add_allocations: 'allocations to add',
  remove_allocations: 'allocations to remove',
  'feature_limits.databases': 'Database Limit',
  'feature_limits.allocations': 'Allocation Limit',
  'feature_limits.backups': 'Backup Limit',
} as const;

export const serverApplicationMessages = {
  noViableNode: 'No nodes satisfying the requirements specified for automatic deployment could be found.',
  noViableAllocation: 'No allocations satisfying the requirements for automatic deployment were found.',
  tooManyPorts: 'Adding more than 1000 ports in a single range at once is not supported.',
  noFallbackAllocation:
    'You are attempting to delete the default allocation for this server but there is no fallback allocation to use.',
  defaultNotAssigned: 'The requested default allocation is not currently assigned to this server.',
  transferring: 'Cannot toggle suspension status on a server that is currently being transferred.',
  nodeFull: "This server does not fit on its node: it would exceed the node's memory or disk limit.",
  allocationTaken: 'The selected allocation is no longer available.',
} as const;
