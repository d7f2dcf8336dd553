import type { DatabaseHostBody } from '@aerie/shared/databases/database-hosts-bodies';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationList, applicationResource, listQuery, type Page } from '@/lib/application-api';

export type DatabaseDriver = 'mysql' | 'postgres';

/** A database host as the admin area shows it; never its password. */
export interface DatabaseHost {
  id: number;
  name: string;
  driver: DatabaseDriver;
  host: string;
  port: number;
  username: string;
  nodeId: number | null;
}

/** `database_host` attributes of the Application API (never the password). */
export interface DatabaseHostAttributes {
  id: number;
  name: string;
  host: string;
  port: number;
  username: string;
  node: number | null;
  driver: DatabaseDriver;
}

export const toDatabaseHost = (attributes: DatabaseHostAttributes): DatabaseHost => ({
  id: attributes.id,
  name: attributes.name,
  driver: attributes.driver,
  host: attributes.host,
  port: attributes.port,
  username: attributes.username,
  nodeId: attributes.node,
});

export interface NodeOption {
  id: number;
  name: string;
}

export const databaseHostKeys = {
  all: ['admin', 'database-hosts'] as const,
  list: (page: number) => [...databaseHostKeys.all, 'list', page] as const,
  detail: (id: number) => [...databaseHostKeys.all, 'detail', id] as const,
  options: () => [...databaseHostKeys.all, 'options'] as const,
  nodes: ['admin', 'database-hosts', 'node-options'] as const,
};

const hosts = applicationResource<DatabaseHostAttributes, DatabaseHost, DatabaseHostBody>(
  '/api/application/database-hosts',
  toDatabaseHost,
);

/** GET /api/application/database-hosts */
export const getDatabaseHosts = (page: number, signal?: AbortSignal): Promise<Page<DatabaseHost>> =>
  hosts.list(listQuery({ page }), signal);

/** Every database host (up to the API's 1,000 a page), by name, for a drop-down. */
export async function getAllDatabaseHosts(signal?: AbortSignal): Promise<DatabaseHost[]> {
  const list = await apiClient.get<ApplicationList<DatabaseHostAttributes>>(
    '/api/application/database-hosts',
    { params: listQuery({ perPage: 1000 }), signal },
  );
  return list.data
    .map(({ attributes }) => toDatabaseHost(attributes))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /api/application/database-hosts/{id} */
export const getDatabaseHost = hosts.get;

/** POST /api/application/database-hosts: the panel connects with the details first (400 when it cannot). */
export const createDatabaseHost = hosts.create;

/** PATCH /api/application/database-hosts/{id}: an empty password keeps the stored one. */
export const updateDatabaseHost = hosts.update;

/** DELETE /api/application/database-hosts/{id} (refused while databases live on it). */
export const deleteDatabaseHost = hosts.remove;

/** The nodes a host can be linked to (first 100, by name), for the form's select. */
export async function getNodeOptions(signal?: AbortSignal): Promise<NodeOption[]> {
  const list = await apiClient.get<ApplicationList<{ id: number; name: string }>>('/api/application/nodes', {
    params: { per_page: 100 },
    signal,
  });
  return list.data
    .map(({ attributes }) => ({ id: attributes.id, name: attributes.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const databaseHostsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: databaseHostKeys.list(page),
    queryFn: ({ signal }) => getDatabaseHosts(page, signal),
  });

export const databaseHostQueryOptions = (id: number) =>
  queryOptions({
    queryKey: databaseHostKeys.detail(id),
    queryFn: ({ signal }) => getDatabaseHost(id, signal),
  });

export const nodeOptionsQueryOptions = () =>
  queryOptions({ queryKey: databaseHostKeys.nodes, queryFn: ({ signal }) => getNodeOptions(signal) });

export const databaseHostOptionsQueryOptions = () =>
  queryOptions({
    queryKey: databaseHostKeys.options(),
    queryFn: ({ signal }) => getAllDatabaseHosts(signal),
  });
