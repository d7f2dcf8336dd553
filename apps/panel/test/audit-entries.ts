import type { Db } from '@aerie/panel/db/database';
import { readDate } from '@aerie/panel/db/dialect';
import { expect } from 'vitest';

/** The audit entries about one object, oldest first, as the log stores them (JSON parsed). */
export async function auditEntriesAbout(db: Db, subjectType: string, subjectId: string | number | null) {
  let query = db.selectFrom('admin_audit_log').selectAll().where('subject_type', '=', subjectType);
  query =
    subjectId == null
      ? query.where('subject_id', 'is', null)
      : query.where('subject_id', '=', String(subjectId));
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({
    action: row.action,
    actorId: row.actor_id,
    actorName: row.actor_name,
    apiKey: row.api_key,
    ip: row.ip,
    before: row.before == null ? null : (JSON.parse(row.before) as Record<string, unknown>),
    after: row.after == null ? null : (JSON.parse(row.after) as Record<string, unknown>),
    createdAt: readDate(row.created_at),
  }));
}

/** How many entries the whole log holds (a failed change must not add one). */
export async function auditEntryCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('admin_audit_log')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What an entry says of a change made with `admin`'s application key from the tests' default address. */
export const madeWithKey = (admin: { id: number; username: string }, bearer: string, ip = '127.0.0.1') => ({
  actorId: admin.id,
  actorName: admin.username,
  apiKey: bearer.slice(0, 16),
  ip,
  createdAt: expect.any(Date),
});
