import { randomUUID } from 'node:crypto';
import type { AppContext } from '@aerie/panel/app-context';

export interface TestBackupInput {
  name?: string;
  /** successful (default), running, failed. */
  state?: 'successful' | 'running' | 'failed';
  isLocked?: boolean;
  disk?: string;
  ignoredFiles?: string[];
  createdAt?: Date;
  deletedAt?: Date | null;
  bytes?: number;
}

/** A backup row of `server` as the node's report would leave it (successful unless `state` says otherwise). */
export async function createTestBackup(
  ctx: AppContext,
  server: { id: number },
  input: TestBackupInput = {},
): Promise<{ id: number; uuid: string }> {
  const uuid = randomUUID();
  const state = input.state ?? 'successful';
  const createdAt = input.createdAt ?? ctx.clock();
  await ctx.db
    .insertInto('backups')
    .values({
      server_id: server.id,
      uuid,
      name: input.name ?? `Backup ${uuid.slice(0, 8)}`,
      ignored_files: JSON.stringify(input.ignoredFiles ?? []),
      disk: input.disk ?? 'wings',
      is_locked: input.isLocked ?? false,
      is_successful: state === 'successful',
      checksum: state === 'successful' ? `sha1:${'ab'.repeat(20)}` : null,
      bytes: state === 'successful' ? (input.bytes ?? 1024) : 0,
      completed_at: state === 'running' ? null : createdAt,
      created_at: createdAt,
      updated_at: createdAt,
      deleted_at: input.deletedAt ?? null,
    })
    .execute();
  const { id } = await ctx.db
    .selectFrom('backups')
    .select('id')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  return { id, uuid };
}
