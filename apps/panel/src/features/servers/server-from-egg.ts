import type { Db } from '@aerie/panel/db/database';
import { findEggForServer, listEggVariables } from '@aerie/panel/features/eggs/egg-lookups';
import { createServerRecord } from './create-server';

/** A server with its egg's startup command, first image and variable defaults (bootstrap's demo, test factories). */
export interface NewServer {
  name: string;
  description?: string;
  ownerId: number;
  nodeId: number;
  /** The primary allocation; it must be free. */
  allocationId: number;
  eggId: number;
  memory: number;
  disk: number;
  cpu: number;
  swap?: number;
  io?: number;
  threads?: string | null;
  status?: string | null;
  externalId?: string | null;
  allocationLimit?: number | null;
  databaseLimit?: number | null;
  backupLimit?: number | null;
  /** Values of egg variables by env_variable; the others get the egg's defaults. */
  environment?: Record<string, string>;
  installedAt?: Date | null;
}

/**
 * Creates a server from its egg's defaults through the same path as the Application API (`createServerRecord`):
 * the node's capacity is checked and the allocation claimed under the node's lock.
 * @returns the new server's id and uuid
 */
export async function createServerFromEgg(db: Db, input: NewServer, now = new Date()) {
  const egg = await findEggForServer(db, input.eggId);
  if (!egg) throw new Error(`There is no egg ${input.eggId}.`);
  const variables = await listEggVariables(db, [egg.id]);
  return createServerRecord(
    db,
    {
      name: input.name,
      description: input.description ?? '',
      ownerId: input.ownerId,
      externalId: input.externalId ?? null,
      status: input.status ?? null,
      installedAt: input.installedAt === undefined ? now : input.installedAt,
      skipScripts: false,
      oomDisabled: true,
      limits: {
        memory: input.memory,
        swap: input.swap ?? 0,
        disk: input.disk,
        io: input.io ?? 500,
        cpu: input.cpu,
        threads: input.threads ?? null,
      },
      featureLimits: {
        allocations: input.allocationLimit ?? null,
        databases: input.databaseLimit ?? 0,
        backups: input.backupLimit ?? 0,
      },
      egg: { id: egg.id, nestId: egg.nestId },
      startup: egg.startup ?? '',
      image: Object.values(egg.dockerImages)[0] ?? '',
      variables: new Map(
        variables.map((variable) => [
          variable.id,
          input.environment?.[variable.envVariable] ?? variable.defaultValue,
        ]),
      ),
      placement: { nodeId: input.nodeId, allocationIds: [input.allocationId] },
    },
    now,
  );
}
