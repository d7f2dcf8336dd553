import type { AuditSubjectType } from '@aerie/shared/audit/audit-actions';
import type { AuditEntryAttributes } from '@aerie/shared/audit/audit-wire';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationList, listQuery, type Page, toPage } from '@/lib/application-api';

/** One change of the admin audit log (the Application API's `audit_entry`). */
export interface AuditEntry {
  id: number;
  /** `<subject>.<verb>`; a newer panel's action this build does not know is shown as written. */
  action: string;
  /** Null once the user is deleted; `actorName` keeps the name they had. */
  actorId: number | null;
  actorName: string;
  /** The identifier (`ptla_…`) of the API key the change was made with; null from the admin area. */
  apiKey: string | null;
  ip: string;
  subjectType: string;
  subjectId: string | null;
  /** The object before and after, null when created or deleted; secrets as "[redacted]". */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: Date;
}

export const toAuditEntry = (attributes: AuditEntryAttributes): AuditEntry => ({
  id: attributes.id,
  action: attributes.action,
  actorId: attributes.actor_id,
  actorName: attributes.actor_name,
  apiKey: attributes.api_key,
  ip: attributes.ip,
  subjectType: attributes.subject_type,
  subjectId: attributes.subject_id,
  before: attributes.before,
  after: attributes.after,
  createdAt: new Date(attributes.created_at),
});

/** The list's filters: action and actor name match a part, the subject type exactly ('' for any). */
export interface AuditFilters {
  action: string;
  actorName: string;
  subjectType: AuditSubjectType | '';
}

export interface AuditListParams {
  page: number;
  filters: AuditFilters;
}

export const auditLogKeys = {
  all: ['admin', 'audit-log'] as const,
  list: (params: AuditListParams) => [...auditLogKeys.all, 'list', params] as const,
};

/** GET /api/application/audit-log: newest first, 50 a page. */
export async function getAuditLog(params: AuditListParams, signal?: AbortSignal): Promise<Page<AuditEntry>> {
  const { action, actorName, subjectType } = params.filters;
  const list = await apiClient.get<ApplicationList<AuditEntryAttributes>>('/api/application/audit-log', {
    signal,
    params: listQuery({
      page: params.page,
      filters: { action, actor_name: actorName, subject_type: subjectType },
    }),
  });
  return toPage(list, toAuditEntry);
}

export const auditLogQueryOptions = (params: AuditListParams) =>
  queryOptions({
    queryKey: auditLogKeys.list(params),
    queryFn: ({ signal }) => getAuditLog(params, signal),
    placeholderData: keepPreviousData,
  });
