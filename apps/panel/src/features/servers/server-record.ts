import { readBool } from '@aerie/panel/db/dialect';
import type { ServersTable } from '@aerie/panel/db/schema-servers';
import type { Selectable } from 'kysely';

/** A server as the routes see it: booleans normalised across dialects. */
export interface ServerRecord {
  id: number;
  uuid: string;
  uuidShort: string;
  externalId: string | null;
  nodeId: number;
  name: string;
  description: string;
  status: string | null;
  ownerId: number;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
  oomDisabled: boolean;
  allocationId: number;
  eggId: number;
  startup: string;
  image: string;
  allocationLimit: number | null;
  databaseLimit: number | null;
  backupLimit: number | null;
}

/** The columns a ServerRecord is read from (lists read thousands of rows: no column more than needed). */
export const serverRecordColumns = [
  'servers.id',
  'servers.uuid',
  'servers.uuid_short',
  'servers.external_id',
  'servers.node_id',
  'servers.name',
  'servers.description',
  'servers.status',
  'servers.owner_id',
  'servers.memory',
  'servers.swap',
  'servers.disk',
  'servers.io',
  'servers.cpu',
  'servers.threads',
  'servers.oom_disabled',
  'servers.allocation_id',
  'servers.egg_id',
  'servers.startup',
  'servers.image',
  'servers.allocation_limit',
  'servers.database_limit',
  'servers.backup_limit',
] as const;

type ServerRecordRow = Pick<
  Selectable<ServersTable>,
  (typeof serverRecordColumns)[number] extends `servers.${infer C}` ? C & keyof ServersTable : never
>;

export function toServerRecord(row: ServerRecordRow): ServerRecord {
  return {
    id: row.id,
    uuid: row.uuid,
    uuidShort: row.uuid_short,
    externalId: row.external_id,
    nodeId: row.node_id,
    name: row.name,
    description: row.description,
    status: row.status,
    ownerId: row.owner_id,
    memory: row.memory,
    swap: row.swap,
    disk: row.disk,
    io: row.io,
    cpu: row.cpu,
    threads: row.threads,
    oomDisabled: readBool(row.oom_disabled),
    allocationId: row.allocation_id,
    eggId: row.egg_id,
    startup: row.startup,
    image: row.image,
    allocationLimit: row.allocation_limit,
    databaseLimit: row.database_limit,
    backupLimit: row.backup_limit,
  };
}
