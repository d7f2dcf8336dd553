import {
  APPLICATION_REMOTE,
  type ApplicationServerDatabaseBody,
  applicationServerDatabaseAttributes,
  DATABASE_NAME,
  serverDatabaseLimits,
} from '@aerie/shared/databases/databases-bodies';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type DatabaseHost,
  type DatabaseHostAttributes,
  toDatabaseHost,
} from '@/features/admin-database-hosts/api/database-hosts';
import { adminServerKeys } from '@/features/admin-servers/api/admin-servers';
import { apiClient } from '@/lib/api-client';
import type { ApplicationItem, ApplicationList } from '@/lib/application-api';

/**
 * A server's database as the admin area shows it: the Application API's `server_database` (docs/api/databases.md,
 * "Application API"), with its host when the `host` include was read (null when the caller may not read hosts).
 */
export interface AdminServerDatabase {
  id: number;
  serverId: number;
  hostId: number;
  /** The name on the host, `s{server}_{name}`. */
  database: string;
  username: string;
  /** Where the user may connect from (`%` = anywhere). */
  remote: string;
  /** 0 = no limit of the panel's. */
  maxConnections: number;
  host: DatabaseHost | null;
}

/** `server_database` attributes of the Application API (the client API's shape differs: databases-wire.ts). */
interface ServerDatabaseAttributes {
  id: number;
  server: number;
  host: number;
  database: string;
  username: string;
  remote: string;
  max_connections: number;
  created_at: string;
  updated_at: string | null;
  relationships?: {
    host?: ApplicationItem<DatabaseHostAttributes> | { object: 'null_resource'; attributes: null };
  };
}

export function toAdminServerDatabase(a: ServerDatabaseAttributes): AdminServerDatabase {
  const host = a.relationships?.host;
  return {
    id: a.id,
    serverId: a.server,
    hostId: a.host,
    database: a.database,
    username: a.username,
    remote: a.remote,
    maxConnections: a.max_connections,
    host: host?.attributes ? toDatabaseHost(host.attributes) : null,
  };
}

const base = (serverId: number) => `/api/application/servers/${serverId}/databases`;

export const serverDatabaseKeys = {
  list: (serverId: number) => [...adminServerKeys.detail(serverId), 'databases'] as const,
};

/** GET /api/application/servers/{id}/databases?include=host (no pagination). */
export async function getAdminServerDatabases(
  serverId: number,
  signal?: AbortSignal,
): Promise<AdminServerDatabase[]> {
  const list = await apiClient.get<ApplicationList<ServerDatabaseAttributes>>(base(serverId), {
    signal,
    params: { include: 'host' },
  });
  return list.data.map(({ attributes }) => toAdminServerDatabase(attributes));
}

export const adminServerDatabasesQueryOptions = (serverId: number) =>
  queryOptions({
    queryKey: serverDatabaseKeys.list(serverId),
    queryFn: ({ signal }) => getAdminServerDatabases(serverId, signal),
  });

/**
 * POST /api/application/servers/{id}/databases?include=host `{database, remote, host}`: 201 with the database
 * (422 on a field; 400 over the server's limit or for a name it already has; 502 when the host failed).
 */
export async function createAdminServerDatabase(
  serverId: number,
  body: ApplicationServerDatabaseBody,
): Promise<AdminServerDatabase> {
  const item = await apiClient.post<ApplicationItem<ServerDatabaseAttributes>>(base(serverId), body, {
    params: { include: 'host' },
  });
  return toAdminServerDatabase(item.attributes);
}

/** POST …/databases/{database}/reset-password: 204, the new password is set on the host and stored. */
export async function resetServerDatabasePassword(serverId: number, databaseId: number): Promise<void> {
  await apiClient.post(`${base(serverId)}/${databaseId}/reset-password`);
}

/** DELETE …/databases/{database}: 204 once dropped on its host. */
export async function deleteAdminServerDatabase(serverId: number, databaseId: number): Promise<void> {
  await apiClient.delete(`${base(serverId)}/${databaseId}`);
}

const names = applicationServerDatabaseAttributes;
const required = (attribute: string) =>
  z
    .string()
    .trim()
    .min(1, { error: laravelMessages.required(attribute), abort: true });

/**
 * The tab's Create New Database form, checked by the API's rules and in its words (the `host` must also exist:
 * only the panel knows, 422 `exists`). The host is the id as the select holds it.
 */
export const serverDatabaseFormSchema = z.object({
  host: required(names.host),
  database: required(names.database)
    .regex(DATABASE_NAME, laravelMessages.alpha_dash(names.database))
    .max(
      serverDatabaseLimits.nameMax,
      laravelMessages.max(names.database, { max: serverDatabaseLimits.nameMax }),
    ),
  remote: required(names.remote).regex(APPLICATION_REMOTE, laravelMessages.regex(names.remote)),
});

export type ServerDatabaseFormValues = z.infer<typeof serverDatabaseFormSchema>;

export const serverDatabaseFormDefaults: ServerDatabaseFormValues = { host: '', database: '', remote: '%' };

export const toServerDatabaseBody = (values: ServerDatabaseFormValues): ApplicationServerDatabaseBody => ({
  database: values.database,
  remote: values.remote,
  host: Number(values.host),
});
