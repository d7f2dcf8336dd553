import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import {
  type ApplicationItem,
  type ApplicationList,
  listQuery,
  type Page,
  toPage,
} from '@/lib/application-api';

/** A server as the admin area shows it (the Application API's `server`). */
export interface AdminServer {
  id: number;
  externalId: string | null;
  uuid: string;
  identifier: string;
  name: string;
  description: string;
  status: string | null;
  suspended: boolean;
  limits: {
    memory: number;
    swap: number;
    disk: number;
    io: number;
    cpu: number;
    threads: string | null;
    oomDisabled: boolean;
  };
  featureLimits: { databases: number | null; allocations: number | null; backups: number };
  userId: number;
  nodeId: number;
  allocationId: number;
  nestId: number;
  eggId: number;
  container: {
    startupCommand: string;
    image: string;
    installed: boolean;
    environment: Record<string, string | number | null>;
  };
  owner?: { id: number; username: string; email: string } | null;
  node?: { id: number; name: string } | null;
  allocations?: { id: number; ip: string; port: number; alias: string | null }[];
  /** The server's latest transfer (`include=transfer`), null when it never moved. */
  transfer?: AdminServerTransfer | null;
}

/** A transfer as the admin area shows it (the Application API's `server_transfer`). */
export interface AdminServerTransfer {
  id: number;
  /** null while it runs. */
  successful: boolean | null;
  oldNode: number;
  newNode: number;
  failure: string | null;
}

interface TransferAttributes {
  id: number;
  successful: boolean | null;
  old_node: number;
  new_node: number;
  failure: string | null;
}

interface ServerAttributes {
  id: number;
  external_id: string | null;
  uuid: string;
  identifier: string;
  name: string;
  description: string;
  status: string | null;
  suspended: boolean;
  limits: {
    memory: number;
    swap: number;
    disk: number;
    io: number;
    cpu: number;
    threads: string | null;
    oom_disabled: boolean;
  };
  feature_limits: { databases: number | null; allocations: number | null; backups: number };
  user: number;
  node: number;
  allocation: number;
  nest: number;
  egg: number;
  container: {
    startup_command: string;
    image: string;
    installed: number;
    environment: Record<string, string | number | null>;
  };
  relationships?: {
    user?: ApplicationItem<{ id: number; username: string; email: string }> | { object: 'null_resource' };
    node?: ApplicationItem<{ id: number; name: string }> | { object: 'null_resource' };
    allocations?: ApplicationList<{ id: number; ip: string; port: number; alias: string | null }>;
    transfer?: ApplicationItem<TransferAttributes> | { object: 'null_resource' };
  };
}

const related = <T>(
  value: ApplicationItem<T> | { object: 'null_resource' } | undefined,
): T | null | undefined =>
  value === undefined ? undefined : 'attributes' in value ? value.attributes : null;

export function toAdminServer(a: ServerAttributes): AdminServer {
  const owner = related(a.relationships?.user);
  const node = related(a.relationships?.node);
  const transfer = related(a.relationships?.transfer);
  return {
    id: a.id,
    externalId: a.external_id,
    uuid: a.uuid,
    identifier: a.identifier,
    name: a.name,
    description: a.description,
    status: a.status,
    suspended: a.suspended,
    limits: { ...a.limits, oomDisabled: a.limits.oom_disabled },
    featureLimits: a.feature_limits,
    userId: a.user,
    nodeId: a.node,
    allocationId: a.allocation,
    nestId: a.nest,
    eggId: a.egg,
    container: {
      startupCommand: a.container.startup_command,
      image: a.container.image,
      installed: a.container.installed === 1,
      environment: a.container.environment,
    },
    owner:
      owner === undefined
        ? undefined
        : owner && { id: owner.id, username: owner.username, email: owner.email },
    node: node === undefined ? undefined : node && { id: node.id, name: node.name },
    transfer:
      transfer === undefined
        ? undefined
        : transfer && {
            id: transfer.id,
            successful: transfer.successful,
            oldNode: transfer.old_node,
            newNode: transfer.new_node,
            failure: transfer.failure,
          },
    // A caller who may not read allocations gets a `null_resource` there, without `data`.
    allocations: a.relationships?.allocations?.data?.map(({ attributes }) => ({
      id: attributes.id,
      ip: attributes.ip,
      port: attributes.port,
      alias: attributes.alias,
    })),
  };
}

const base = '/api/application/servers';

export const adminServerKeys = {
  all: ['admin', 'servers'] as const,
  list: (page: number, search: string) => [...adminServerKeys.all, 'list', page, search] as const,
  detail: (id: number) => [...adminServerKeys.all, 'detail', id] as const,
};

/** GET /api/application/servers?include=user,node: one page, searched by name. */
export async function getAdminServers(
  page: number,
  search: string,
  signal?: AbortSignal,
): Promise<Page<AdminServer>> {
  const list = await apiClient.get<ApplicationList<ServerAttributes>>(base, {
    signal,
    params: { ...listQuery({ page, filters: { name: search } }), include: 'user,node' },
  });
  return toPage(list, toAdminServer);
}

export const adminServersQueryOptions = (page: number, search: string) =>
  queryOptions({
    queryKey: adminServerKeys.list(page, search),
    queryFn: ({ signal }) => getAdminServers(page, search, signal),
    placeholderData: (previous) => previous,
  });

/** GET /api/application/servers/{id} with its owner, node, allocations and latest transfer. */
export async function getAdminServer(id: number, signal?: AbortSignal): Promise<AdminServer> {
  const item = await apiClient.get<ApplicationItem<ServerAttributes>>(`${base}/${id}`, {
    signal,
    params: { include: 'user,node,allocations,transfer' },
  });
  return toAdminServer(item.attributes);
}

/** Read again every 2 s while a transfer runs, so the page shows its end (the node changes, or why it failed). */
export const adminServerQueryOptions = (id: number) =>
  queryOptions({
    queryKey: adminServerKeys.detail(id),
    queryFn: ({ signal }) => getAdminServer(id, signal),
    refetchInterval: (query) => (query.state.data?.transfer?.successful === null ? 2000 : false),
  });

export interface TransferInput {
  nodeId: number;
  allocationId: number;
  additionalIds: number[];
}

/** POST /api/application/servers/{id}/transfer: 202 once the source node has begun. */
export async function transferAdminServer(id: number, input: TransferInput): Promise<void> {
  await apiClient.post(`${base}/${id}/transfer`, {
    node_id: input.nodeId,
    allocation_id: input.allocationId,
    allocation_additional: input.additionalIds,
  });
}

/** POST /api/application/servers/{id}/transfer/cancel. */
export async function cancelAdminServerTransfer(id: number): Promise<void> {
  await apiClient.post(`${base}/${id}/transfer/cancel`);
}

export interface CreateServerInput {
  name: string;
  description: string;
  external_id: string | null;
  user: number;
  egg: number;
  docker_image: string;
  startup: string;
  environment: Record<string, string>;
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number; threads: string | null };
  feature_limits: { databases: number | null; allocations: number | null; backups: number | null };
  allocation?: { default: number; additional: number[] };
  deploy?: { locations: number[]; dedicated_ip: boolean; port_range: string[] };
  start_on_completion: boolean;
  skip_scripts: boolean;
  oom_disabled: boolean;
}

/** POST /api/application/servers */
export async function createAdminServer(input: CreateServerInput): Promise<AdminServer> {
  const item = await apiClient.post<ApplicationItem<ServerAttributes>>(base, input);
  return toAdminServer(item.attributes);
}

/** PATCH /api/application/servers/{id}/details */
export async function updateServerDetails(
  id: number,
  input: { name: string; user: number; external_id: string | null; description: string },
) {
  await apiClient.patch(`${base}/${id}/details`, input);
}

/** PATCH /api/application/servers/{id}/build */
export async function updateServerBuild(
  id: number,
  input: {
    allocation: number;
    limits: CreateServerInput['limits'];
    feature_limits: CreateServerInput['feature_limits'];
    oom_disabled: boolean;
    add_allocations: number[];
    remove_allocations: number[];
  },
) {
  await apiClient.patch(`${base}/${id}/build`, input);
}

/** PATCH /api/application/servers/{id}/startup */
export async function updateServerStartup(
  id: number,
  input: {
    startup: string;
    image: string;
    egg: number;
    environment: Record<string, string>;
    skip_scripts: boolean;
  },
) {
  await apiClient.patch(`${base}/${id}/startup`, input);
}

/** POST …/suspend | unsuspend | reinstall */
export async function serverAction(id: number, action: 'suspend' | 'unsuspend' | 'reinstall') {
  await apiClient.post(`${base}/${id}/${action}`, []);
}

/** DELETE /api/application/servers/{id}[/force] */
export async function deleteAdminServer(id: number, force: boolean) {
  await apiClient.delete(`${base}/${id}${force ? '/force' : ''}`);
}

/** What the create form and the startup tab pick from: users, nodes, nests with eggs (locations: admin-locations' api). */
interface Named {
  id: number;
  name: string;
}

export interface EggChoice extends Named {
  nestId: number;
  dockerImages: Record<string, string>;
  startup: string;
  variables: { name: string; env: string; defaultValue: string; description: string; rules: string }[];
}

/** GET /api/application/users?filter[email]=… (the owner picker; by email or username). */
export async function findUsers(search: string, signal?: AbortSignal) {
  const byEmail = search.includes('@');
  const list = await apiClient.get<ApplicationList<{ id: number; username: string; email: string }>>(
    '/api/application/users',
    {
      signal,
      params: listQuery({ perPage: 10, filters: byEmail ? { email: search } : { username: search } }),
    },
  );
  return list.data.map(({ attributes }) => ({
    id: attributes.id,
    username: attributes.username,
    email: attributes.email,
  }));
}

export async function getNodeChoices(signal?: AbortSignal): Promise<Named[]> {
  const list = await apiClient.get<ApplicationList<Named>>('/api/application/nodes', {
    signal,
    params: { per_page: 1000 },
  });
  return list.data.map(({ attributes }) => ({ id: attributes.id, name: attributes.name }));
}

/** Free allocations of a node (`filter[server_id]=0` lists the unassigned ones). */
export async function getFreeAllocations(nodeId: number, signal?: AbortSignal) {
  const list = await apiClient.get<
    ApplicationList<{ id: number; ip: string; port: number; alias: string | null }>
  >(`/api/application/nodes/${nodeId}/allocations`, {
    signal,
    params: { 'filter[server_id]': '0', per_page: 1000 },
  });
  return list.data.map(({ attributes }) => attributes);
}

interface EggAttributes {
  id: number;
  name: string;
  nest: number;
  docker_images: Record<string, string>;
  startup: string;
  relationships?: {
    variables?: ApplicationList<{
      name: string;
      env_variable: string;
      default_value: string;
      description: string;
      rules: string;
    }>;
  };
}

/** Every egg of every nest, with its variables (GET nests?include=eggs, then each nest's eggs with variables). */
/** The eggs as drop-down options, each named with its nest (`Minecraft / Paper`): egg names repeat across nests. */
export const eggOptions = (choices: { nests: Named[]; eggs: EggChoice[] } | undefined) =>
  (choices?.eggs ?? []).map((egg) => ({
    value: String(egg.id),
    label: `${choices?.nests.find((nest) => nest.id === egg.nestId)?.name ?? ''} / ${egg.name}`,
  }));

export async function getEggChoices(signal?: AbortSignal): Promise<{ nests: Named[]; eggs: EggChoice[] }> {
  const nests = await apiClient.get<ApplicationList<Named>>('/api/application/nests', {
    signal,
    params: { per_page: 1000 },
  });
  const eggs = await Promise.all(
    nests.data.map(({ attributes: nest }) =>
      apiClient.get<ApplicationList<EggAttributes>>(`/api/application/nests/${nest.id}/eggs`, {
        signal,
        params: { include: 'variables' },
      }),
    ),
  );
  return {
    nests: nests.data.map(({ attributes }) => ({ id: attributes.id, name: attributes.name })),
    eggs: eggs.flatMap((list) =>
      list.data.map(({ attributes: egg }) => ({
        id: egg.id,
        name: egg.name,
        nestId: egg.nest,
        dockerImages: egg.docker_images,
        startup: egg.startup,
        variables: (egg.relationships?.variables?.data ?? []).map(({ attributes: variable }) => ({
          name: variable.name,
          env: variable.env_variable,
          defaultValue: variable.default_value,
          description: variable.description,
          rules: variable.rules,
        })),
      })),
    ),
  };
}

/** Every node's free allocations: creating, rebuilding or deleting a server changes which are free. */
export const freeAllocationsKey = ['admin', 'choices', 'allocations'] as const;

export const choiceQueries = {
  nodes: () =>
    queryOptions({
      queryKey: ['admin', 'choices', 'nodes'] as const,
      queryFn: ({ signal }) => getNodeChoices(signal),
    }),
  eggs: () =>
    queryOptions({
      queryKey: ['admin', 'choices', 'eggs'] as const,
      queryFn: ({ signal }) => getEggChoices(signal),
    }),
  freeAllocations: (nodeId: number) =>
    queryOptions({
      queryKey: [...freeAllocationsKey, nodeId] as const,
      queryFn: ({ signal }) => getFreeAllocations(nodeId, signal),
      enabled: nodeId > 0,
    }),
};
