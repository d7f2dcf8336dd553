import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';

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
 * Creates a server on a free allocation with the egg's startup command, first image and variable defaults, in
 * one transaction. The identifier is the first 8 characters of a fresh uuid (drawn again on a collision).
 * @returns the new server's id and uuid
 */
export async function createServer(db: Db, input: NewServer, now = new Date()) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertServer(db, input, now);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

async function insertServer(db: Db, input: NewServer, now: Date) {
  const uuid = randomUUID();
  return db.transaction().execute(async (tx) => {
    const egg = await tx
      .selectFrom('eggs')
      .select(['id', 'nest_id', 'startup', 'docker_images'])
      .where('id', '=', input.eggId)
      .executeTakeFirstOrThrow();
    const images = Object.values(JSON.parse(egg.docker_images) as Record<string, string>);
    await tx
      .insertInto('servers')
      .values({
        uuid,
        uuid_short: uuid.slice(0, 8),
        external_id: input.externalId ?? null,
        node_id: input.nodeId,
        name: input.name,
        description: input.description ?? '',
        status: input.status ?? null,
        skip_scripts: false,
        owner_id: input.ownerId,
        memory: input.memory,
        swap: input.swap ?? 0,
        disk: input.disk,
        io: input.io ?? 500,
        cpu: input.cpu,
        threads: input.threads ?? null,
        oom_disabled: true,
        allocation_id: input.allocationId,
        nest_id: egg.nest_id,
        egg_id: egg.id,
        startup: egg.startup ?? '',
        image: images[0] ?? '',
        allocation_limit: input.allocationLimit ?? null,
        database_limit: input.databaseLimit ?? 0,
        backup_limit: input.backupLimit ?? 0,
        installed_at: input.installedAt === undefined ? now : input.installedAt,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const server = await tx
      .selectFrom('servers')
      .select('id')
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    const claimed = await tx
      .updateTable('allocations')
      .set({ server_id: server.id, updated_at: now })
      .where('id', '=', input.allocationId)
      .where('node_id', '=', input.nodeId)
      .where('server_id', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new Error('The allocation is not free on this node.');
    const variables = await tx
      .selectFrom('egg_variables')
      .select(['id', 'env_variable', 'default_value'])
      .where('egg_id', '=', egg.id)
      .execute();
    if (variables.length > 0) {
      await tx
        .insertInto('server_variables')
        .values(
          variables.map((variable) => ({
            server_id: server.id,
            variable_id: variable.id,
            variable_value: input.environment?.[variable.env_variable] ?? variable.default_value,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    return { id: server.id, uuid };
  });
}
