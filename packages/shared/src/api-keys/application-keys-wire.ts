/**
 * Application (admin) API keys, `ptla_…`: one access level per resource, stored in the key's `r_<resource>`
 * column as bits (reference application API §1.2–1.3). Bit 1 reads, bit 2 writes; the admin forms offer 0 (none),
 * 1 (read) and 3 (read and write).
 */

/** The resources an application key is scoped to, in the order of the reference's `r_*` columns. */
export const adminResources = [
  'servers',
  'nodes',
  'allocations',
  'users',
  'locations',
  'nests',
  'eggs',
  'database_hosts',
  'server_databases',
  'mounts',
  'audit_log',
] as const;

export type AdminResource = (typeof adminResources)[number];

export const ACCESS_READ = 1;
export const ACCESS_WRITE = 2;

/** Access levels a key can be given per resource. */
export const accessLevels = [0, 1, 2, 3] as const;

export type ResourceAccess = Record<AdminResource, number>;

export const applicationKeyLimits = {
  memoMax: 500,
  /** Application keys one admin may hold. */
  perUser: 50,
} as const;

/** `api_key` item of /api/application/api-keys (never the secret, except once in `meta.secret_token`). */
export interface ApplicationKeyAttributes {
  identifier: string;
  memo: string;
  allowed_ips: string[];
  /** `r_servers`, `r_nodes`, …: 0–3. */
  [column: `r_${string}`]: number;
  last_used_at: string | null;
  created_at: string;
}
