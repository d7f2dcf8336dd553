import type { AuditAction, AuditSubjectType } from './audit-actions';

/** `audit_entry` of /api/application/audit-log. */
export interface AuditEntryAttributes {
  id: number;
  action: AuditAction;
  /** Who made the change: null once that user is deleted (`actor_name` keeps the name they had). */
  actor_id: number | null;
  actor_name: string;
  /** The identifier of the API key the change was made with; null from the admin area (a session). */
  api_key: string | null;
  ip: string;
  subject_type: AuditSubjectType;
  /** The object's id (or the short identifier of an API key); null for the panel settings. */
  subject_id: string | null;
  /**
   * The object as it was and as it became (null when created or deleted), in the Application API's own field
   * names; secrets show as `"[redacted]"`.
   */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

/** The value a secret's field shows in an entry. */
export const REDACTED = '[redacted]';
