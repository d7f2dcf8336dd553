import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { AuditAction, AuditSubjectType } from '@aerie/shared/audit/audit-actions';
import type { AuditEntryAttributes } from '@aerie/shared/audit/audit-wire';
import type { AuditRecord } from './audit.repository';

/** `audit_entry` of /api/application/audit-log. */
export const auditEntryTransformer: Transformer<AuditRecord> = {
  object: 'audit_entry',
  attributes: (entry) => {
    const attributes: AuditEntryAttributes = {
      id: entry.id,
      action: entry.action as AuditAction,
      actor_id: entry.actorId,
      actor_name: entry.actorName,
      api_key: entry.apiKey,
      ip: entry.ip,
      subject_type: entry.subjectType as AuditSubjectType,
      subject_id: entry.subjectId,
      before: entry.before,
      after: entry.after,
      created_at: toWireDate(entry.createdAt),
    };
    return { ...attributes };
  },
};
