import type { CreateServerDatabaseBody } from '@aerie/shared/databases/databases-bodies';
import type {
  ServerDatabaseAttributes,
  ServerDatabaseListResponse,
  ServerDatabaseResponse,
} from '@aerie/shared/databases/databases-wire';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serverKeys } from '@/features/servers/api/servers';
import { apiClient } from '@/lib/api-client';

/** A database of the server (spec §3 "Database"). */
export interface ServerDatabase {
  /** The hashid the routes take back. */
  id: string;
  /** The name on the host, `s{server}_{name}`. */
  name: string;
  username: string;
  /** The database host's address and port. */
  host: { address: string; port: number };
  /** Where to connect, `{address}:{port}` (an IPv6 address in brackets). */
  endpoint: string;
  /** Where the user may connect from (`%` = anywhere). */
  connectionsFrom: string;
  maxConnections: number;
  /** Only for holders of database.view_password (the panel sends `null_resource` to others). */
  password: string | null;
}

/** An IPv6 address goes in brackets before its port. */
const hostPart = (address: string) =>
  address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;

export const toServerDatabase = (attributes: ServerDatabaseAttributes): ServerDatabase => {
  const password = attributes.relationships?.password;
  return {
    id: attributes.id,
    name: attributes.name,
    username: attributes.username,
    host: { address: attributes.host.address, port: attributes.host.port },
    endpoint: `${hostPart(attributes.host.address)}:${attributes.host.port}`,
    connectionsFrom: attributes.connections_from,
    maxConnections: attributes.max_connections,
    password: password?.object === 'database_password' ? password.attributes.password : null,
  };
};

/**
 * The JDBC connection string: `jdbc:mysql://{username}{:password}@{address}:{port}/{name}`, the password only when
 * the user may see it; each part percent-encoded, since generated passwords hold `@ = + ^` and a URL must not.
 */
export const jdbcConnectionString = (database: ServerDatabase) => {
  const password = database.password !== null ? `:${encodeURIComponent(database.password)}` : '';
  return `jdbc:mysql://${encodeURIComponent(database.username)}${password}@${database.endpoint}/${encodeURIComponent(database.name)}`;
};

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/databases`;
const one = (serverId: string, id: string) => `${base(serverId)}/${encodeURIComponent(id)}`;

/** Under the server's key, so leaving the server drops them with everything else. */
export const databaseKeys = {
  all: (serverId: string) => [...serverKeys.detail(serverId), 'databases'] as const,
  list: (serverId: string, withPasswords: boolean) =>
    [...databaseKeys.all(serverId), 'list', { withPasswords }] as const,
};

/** GET …/databases, with `include=password` for holders of database.view_password. */
export async function getServerDatabases(
  serverId: string,
  withPasswords: boolean,
  signal?: AbortSignal,
): Promise<ServerDatabase[]> {
  const response = await apiClient.get<ServerDatabaseListResponse>(base(serverId), {
    params: withPasswords ? { include: 'password' } : undefined,
    signal,
  });
  return response.data.map(({ attributes }) => toServerDatabase(attributes));
}

/** POST …/databases?include=password `{database, remote}`: the new database, its password when viewable. */
export async function createServerDatabase(
  serverId: string,
  body: CreateServerDatabaseBody,
): Promise<ServerDatabase> {
  const response = await apiClient.post<ServerDatabaseResponse>(base(serverId), body, {
    params: { include: 'password' },
  });
  return toServerDatabase(response.attributes);
}

/** POST …/databases/{id}/rotate-password: the database with its new password (when viewable). */
export async function rotateServerDatabasePassword(serverId: string, id: string): Promise<ServerDatabase> {
  const response = await apiClient.post<ServerDatabaseResponse>(`${one(serverId, id)}/rotate-password`);
  return toServerDatabase(response.attributes);
}

/** DELETE …/databases/{id}: 204. */
export async function deleteServerDatabase(serverId: string, id: string): Promise<void> {
  await apiClient.delete(one(serverId, id));
}

export const serverDatabasesQueryOptions = (serverId: string, withPasswords: boolean) =>
  queryOptions({
    queryKey: databaseKeys.list(serverId, withPasswords),
    queryFn: ({ signal }) => getServerDatabases(serverId, withPasswords, signal),
  });

/** Changes every cached list of the server's databases. */
function updateCachedLists(
  queryClient: QueryClient,
  serverId: string,
  change: (databases: ServerDatabase[]) => ServerDatabase[],
) {
  queryClient.setQueriesData<ServerDatabase[]>(
    { queryKey: databaseKeys.all(serverId) },
    (databases) => databases && change(databases),
  );
}

/** Creates a database: the answer joins the list (the panel sends it whole). */
export function useCreateServerDatabase(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateServerDatabaseBody) => createServerDatabase(serverId, body),
    onSuccess: async (created) => {
      await queryClient.cancelQueries({ queryKey: databaseKeys.all(serverId) });
      updateCachedLists(queryClient, serverId, (databases) =>
        databases.some((database) => database.id === created.id) ? databases : [...databases, created],
      );
    },
  });
}

/** Rotates the password: the answer replaces the database, so its new password shows at once. */
export function useRotateServerDatabasePassword(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => rotateServerDatabasePassword(serverId, id),
    onSuccess: (rotated) =>
      updateCachedLists(queryClient, serverId, (databases) =>
        databases.map((database) => (database.id === rotated.id ? rotated : database)),
      ),
  });
}

/** Deletes a database: it leaves the list at once. */
export function useDeleteServerDatabase(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteServerDatabase(serverId, id),
    onSuccess: async (_nothing, id) => {
      await queryClient.cancelQueries({ queryKey: databaseKeys.all(serverId) });
      updateCachedLists(queryClient, serverId, (databases) =>
        databases.filter((database) => database.id !== id),
      );
    },
  });
}
