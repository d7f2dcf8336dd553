import type { EggUpdateBody, EggVariableBody, NestBody } from '@aerie/shared/eggs/egg-bodies';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import type { ApplicationItem, ApplicationList } from '@/lib/application-api';

/** Nests, eggs and egg variables of the Application API (`/api/application/nests…`) as the admin pages read them. */

interface NestAttributes {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  relationships?: { eggs?: ApplicationList<EggAttributes> };
}

interface EggVariableAttributes {
  id: number;
  egg_id: number;
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: boolean;
  user_editable: boolean;
  rules: string;
}

interface EggAttributes {
  id: number;
  uuid: string;
  name: string;
  nest: number;
  author: string;
  description: string | null;
  docker_images: Record<string, string>;
  config: { startup: { done?: unknown } | null; stop: string | null };
  startup: string | null;
  script: { privileged: boolean; install: string | null; entry: string; container: string };
  relationships?: { variables?: ApplicationList<EggVariableAttributes> };
}

export interface EggSummary {
  id: number;
  uuid: string;
  name: string;
  nestId: number;
  description: string | null;
}

export interface Nest {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  eggs: EggSummary[];
}

export interface EggVariable {
  id: number;
  eggId: number;
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
}

export interface Egg extends EggSummary {
  author: string;
  dockerImages: Record<string, string>;
  startup: string;
  configStop: string;
  /** The done strings of the start-up configuration (one or a list upstream). */
  done: string[];
  scriptContainer: string;
  scriptEntry: string;
  scriptInstall: string;
  scriptIsPrivileged: boolean;
  variables: EggVariable[];
}

const toEggSummary = (egg: EggAttributes): EggSummary => ({
  id: egg.id,
  uuid: egg.uuid,
  name: egg.name,
  nestId: egg.nest,
  description: egg.description,
});

const toNest = (nest: NestAttributes): Nest => ({
  id: nest.id,
  uuid: nest.uuid,
  author: nest.author,
  name: nest.name,
  description: nest.description,
  eggs: (nest.relationships?.eggs?.data ?? []).map((item) => toEggSummary(item.attributes)),
});

const toEggVariable = (variable: EggVariableAttributes): EggVariable => ({
  id: variable.id,
  eggId: variable.egg_id,
  name: variable.name,
  description: variable.description,
  envVariable: variable.env_variable,
  defaultValue: variable.default_value,
  userViewable: variable.user_viewable,
  userEditable: variable.user_editable,
  rules: variable.rules,
});

function doneEntries(done: unknown): string[] {
  if (typeof done === 'string') return [done];
  return Array.isArray(done) ? done.filter((entry): entry is string => typeof entry === 'string') : [];
}

const toEgg = (egg: EggAttributes): Egg => ({
  ...toEggSummary(egg),
  author: egg.author,
  dockerImages: egg.docker_images,
  startup: egg.startup ?? '',
  configStop: egg.config.stop ?? '',
  done: doneEntries(egg.config.startup?.done),
  scriptContainer: egg.script.container,
  scriptEntry: egg.script.entry,
  scriptInstall: egg.script.install ?? '',
  scriptIsPrivileged: egg.script.privileged,
  variables: (egg.relationships?.variables?.data ?? []).map((item) => toEggVariable(item.attributes)),
});

const base = '/api/application/nests';

export const nestKeys = {
  all: ['admin', 'nests'] as const,
  list: () => [...nestKeys.all, 'list'] as const,
  egg: (nestId: number, eggId: number) => [...nestKeys.all, 'egg', nestId, eggId] as const,
};

/** Every nest with its eggs (one page of up to 1,000: an egg page finds its nest here). */
export async function getNests(signal?: AbortSignal): Promise<Nest[]> {
  const list = await apiClient.get<ApplicationList<NestAttributes>>(base, {
    params: { include: 'eggs', per_page: 1000 },
    signal,
  });
  return list.data.map((item) => toNest(item.attributes));
}

export const nestsQueryOptions = () =>
  queryOptions({ queryKey: nestKeys.list(), queryFn: ({ signal }) => getNests(signal) });

export async function getEgg(nestId: number, eggId: number, signal?: AbortSignal): Promise<Egg> {
  const item = await apiClient.get<ApplicationItem<EggAttributes>>(`${base}/${nestId}/eggs/${eggId}`, {
    params: { include: 'variables' },
    signal,
  });
  return toEgg(item.attributes);
}

export const eggQueryOptions = (nestId: number, eggId: number) =>
  queryOptions({
    queryKey: nestKeys.egg(nestId, eggId),
    queryFn: ({ signal }) => getEgg(nestId, eggId, signal),
  });

/** Bodies as sent (snake_case), before the panel reads them. */
export type NestInput = Partial<Record<keyof NestBody, unknown>>;
export type EggInput = Partial<Record<keyof EggUpdateBody, unknown>>;
export type EggVariableInput = Partial<Record<keyof EggVariableBody, unknown>>;

export const createNest = (input: NestInput) =>
  apiClient.post<ApplicationItem<NestAttributes>>(base, input).then((item) => toNest(item.attributes));
export const updateNest = (id: number, input: NestInput) =>
  apiClient
    .patch<ApplicationItem<NestAttributes>>(`${base}/${id}`, input)
    .then((item) => toNest(item.attributes));
export const deleteNest = (id: number) => apiClient.delete(`${base}/${id}`);

/**
 * Imports an egg file into the nest: a JSON object is posted as it is, any other text (Pelican's YAML) as
 * `{file}` for the panel to read.
 */
export async function importEgg(nestId: number, text: string): Promise<EggSummary> {
  let body: unknown = { file: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed;
  } catch {
    // Not JSON: the panel reads it as YAML.
  }
  const item = await apiClient.post<ApplicationItem<EggAttributes>>(`${base}/${nestId}/eggs/import`, body);
  return toEggSummary(item.attributes);
}

export const updateEgg = (egg: EggSummary, input: EggInput) =>
  apiClient.patch(`${base}/${egg.nestId}/eggs/${egg.id}`, input);
export const deleteEgg = (egg: EggSummary) => apiClient.delete(`${base}/${egg.nestId}/eggs/${egg.id}`);

/** The egg's PTDL_v2 export as text, fetched with the session. */
export const exportEgg = (egg: EggSummary) =>
  apiClient.get<string>(`${base}/${egg.nestId}/eggs/${egg.id}/export`, { raw: true });

const variablesPath = (egg: EggSummary) => `${base}/${egg.nestId}/eggs/${egg.id}/variables`;
export const createEggVariable = (egg: EggSummary, input: EggVariableInput) =>
  apiClient.post(variablesPath(egg), input);
export const updateEggVariable = (egg: EggSummary, id: number, input: EggVariableInput) =>
  apiClient.patch(`${variablesPath(egg)}/${id}`, input);
export const deleteEggVariable = (egg: EggSummary, id: number) =>
  apiClient.delete(`${variablesPath(egg)}/${id}`);

/** A mutation that reloads every nest query once it succeeded. */
export function useNestsMutation<A extends unknown[], R>(run: (...args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (args: A) => run(...args),
    onSuccess: () => client.invalidateQueries({ queryKey: nestKeys.all }),
  });
}
