import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readDate } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { AdminAuditLogTable } from '@aerie/panel/db/schema-audit';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import type { Insertable, Selectable } from 'kysely';

/** An entry as the log reads it back. */
export interface AuditRecord {
  id: number;
  action: string;
  actorId: number | null;
  actorName: string;
  apiKey: string | null;
  ip: string;
  subjectType: string;
  subjectId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: Date;
}

/** `filter[…]` and `sort` of GET /api/application/audit-log. */
export const auditListSpec = {
  filters: {
    action: { column: 'admin_audit_log.action' },
    actor_id: { column: 'admin_audit_log.actor_id', exact: true },
    actor_name: { column: 'admin_audit_log.actor_name' },
    api_key: { column: 'admin_audit_log.api_key', exact: true },
    ip: { column: 'admin_audit_log.ip' },
    subject_type: { column: 'admin_audit_log.subject_type', exact: true },
    subject_id: { column: 'admin_audit_log.subject_id', exact: true },
  },
  sorts: { id: 'admin_audit_log.id', created_at: 'admin_audit_log.created_at' },
} as const;

/** @returns the entry's id */
export function insertAuditEntry(db: Db | Tx, row: Insertable<AdminAuditLogTable>): Promise<number> {
  return insertReturningId(db, db.insertInto('admin_audit_log').values(row));
}

export async function deleteAuditEntry(db: Db | Tx, id: number): Promise<void> {
  await db.deleteFrom('admin_audit_log').where('id', '=', id).execute();
}

const parse = (text: string | null) => (text == null ? null : (JSON.parse(text) as Record<string, unknown>));

function toAuditRecord(row: Selectable<AdminAuditLogTable>): AuditRecord {
  return {
    id: row.id,
    action: row.action,
    actorId: row.actor_id,
    actorName: row.actor_name,
    apiKey: row.api_key,
    ip: row.ip,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    before: parse(row.before),
    after: parse(row.after),
    createdAt: readDate(row.created_at),
  };
}

/** A page of entries, newest first unless the query sorts otherwise. */
export async function listAuditEntries(db: Db, list: ListQuery) {
  const newestFirst: ListQuery = list.sort
    ? list
    : { ...list, sort: { column: 'admin_audit_log.id', direction: 'desc' } };
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('admin_audit_log').selectAll(),
    newestFirst,
    'admin_audit_log.id',
  );
  return { rows: rows.map(toAuditRecord), total };
}

export async function findAuditEntry(db: Db, id: number): Promise<AuditRecord | null> {
  const row = await db.selectFrom('admin_audit_log').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAuditRecord(row) : null;
}
