import { z } from 'zod';
import { laravelBoolean, requiredInteger, requiredNumber } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { requiredArray, requiredString, rule } from '../validation/rules';

/**
 * Bodies and queries of the Application API's node and allocation routes (reference application API §3.3–3.4),
 * with Laravel's semantics: numbers may come as numeric strings, booleans as 0/1, and a field that is sent as
 * `null` (or `""`) fails its type rule instead of counting as absent.
 */

/** Upstream's `daemon_base` when a create (or, by its quirk, an update) leaves it out. */
export const DEFAULT_DAEMON_BASE = '/var/lib/pterodactyl/volumes';

const NODE_NAME = /^([\w .-]{1,100})$/;
const DAEMON_BASE = /^([/][\d\w.\-/]+)$/;
/** The integer columns' ceiling: larger numbers are refused (422 `max`) rather than overflowing the database. */
const INT_MAX = 2_147_483_647;

/** A key sent as null is not absent: the rules run on it (and refuse it). */
const nullFails = (value: unknown) => (value === null ? 'null' : value);

const optionalBoolean = () => z.preprocess(nullFails, laravelBoolean().optional());

/** `required|numeric|min:<min>`, with the integer columns' ceiling. */
const size = (min: number) =>
  requiredNumber({ min }).refine((value) => value <= INT_MAX, {
    error: 'max' satisfies LaravelRule,
    params: { max: INT_MAX, numeric: true },
  });

/**
 * POST/PATCH /api/application/nodes. PATCH sends every required field again. `location_id` is
 * `required|exists:locations,id`: the caller looks the location up first and says whether it exists.
 * Deviation: `scheme` must be `http` or `https` (upstream takes anything) and `fqdn` is at most 191 characters,
 * since both end up in the URLs the panel and browsers call the daemon at.
 */
export const nodeBodySchema = (locationExists: boolean) =>
  z.object({
    name: requiredString().regex(NODE_NAME, rule('regex')),
    location_id: z
      .custom<unknown>()
      .superRefine((value, ctx) => {
        if (value === undefined || value === null) {
          ctx.addIssue({ code: 'custom', message: 'required' satisfies LaravelRule });
        } else if (!locationExists) {
          ctx.addIssue({ code: 'custom', message: 'exists' satisfies LaravelRule });
        }
      })
      .transform((value) => Number(value)),
    public: optionalBoolean(),
    fqdn: requiredString().max(191, rule('max')),
    scheme: requiredString().refine((value) => value === 'http' || value === 'https', rule('in')),
    behind_proxy: optionalBoolean(),
    maintenance_mode: optionalBoolean(),
    memory: size(1),
    memory_overallocate: size(-1),
    disk: size(1),
    disk_overallocate: size(-1),
    upload_size: z.preprocess(nullFails, requiredInteger({ min: 1, max: 1024 }).optional()),
    daemon_listen: requiredNumber({ min: 1, max: 65535 }),
    daemon_sftp: requiredNumber({ min: 1, max: 65535 }),
    daemon_base: requiredString().max(191, rule('max')).regex(DAEMON_BASE, rule('regex')).optional(),
  });

export type NodeBody = z.output<ReturnType<typeof nodeBodySchema>>;

/** Laravel's attribute names of the node requests. */
export const nodeAttributeNames = {
  daemon_base: 'Daemon Base Path',
  upload_size: 'File Upload Size Limit',
  location_id: 'Location',
  public: 'Node Visibility',
} as const;

/** `location_id` as the `exists` rule would look it up: an integer (or integer string), else nothing. */
export function locationIdToLookUp(body: unknown): number | null {
  const value =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).location_id : null;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= INT_MAX ? id : null;
}

/** GET /api/application/nodes/deployable (query string). */
export const deployableQuerySchema = z.object({
  memory: requiredInteger({ min: 0 }),
  disk: requiredInteger({ min: 0 }),
  location_ids: z.preprocess(
    nullFails,
    z.array(z.preprocess(nullFails, requiredInteger()), { error: 'array' satisfies LaravelRule }).optional(),
  ),
  page: z.preprocess(nullFails, requiredInteger().optional()),
});

/** POST /api/application/nodes/{node}/allocations: `ports` entries must be JSON strings. */
export const allocationBodySchema = z.object({
  ip: requiredString(),
  alias: z
    .string({ error: 'string' satisfies LaravelRule })
    .max(191, rule('max'))
    .nullish(),
  ports: requiredArray(z.string({ error: 'string' satisfies LaravelRule })),
});

export type AllocationBody = z.output<typeof allocationBodySchema>;

/** Fixed messages of the node and allocation routes, word for word as upstream answers them. */
export const nodeMessages = {
  hasServers: 'A node must have no servers linked to it in order to be deleted.',
  noViableNode: 'No nodes satisfying the requirements specified for automatic deployment could be found.',
  cidrOutOfRange: 'CIDR notation only allows masks between /25 and /32.',
  unparsableIp: (value: string, reason: string) =>
    `Could not parse provided allocation IP address (${value}): ${reason}`,
  invalidPortMapping: (entry: string) =>
    `The mapping provided for ${entry} was invalid and could not be processed.`,
  tooManyPortsInRange: 'Adding more than 1000 ports in a single range at once is not supported.',
  portOutOfRange: 'Ports in an allocation must be greater than 1024 and less than or equal to 65535.',
  /** Aerie's own bound on one request (upstream has none). */
  tooManyAllocations: (max: number) =>
    `Adding more than ${max} allocations in a single request is not supported.`,
  serverUsingAllocation:
    'A server is currently assigned to this allocation. An allocation can only be deleted if no server is currently assigned.',
} as const;
