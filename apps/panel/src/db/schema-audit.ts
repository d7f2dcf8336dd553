import type { ColumnType, Generated } from 'kysely';
import type { DbDate } from './schema-columns';

/** The table of migration 0015-admin-audit-log. Read dates through db/dialect.ts. */
export interface AdminAuditLogTable {
  id: Generated<number>;
  /** An `AuditAction` (packages/shared/src/audit/audit-actions.ts). */
  action: string;
  /** Who made the change; null once that user is deleted. */
  actor_id: number | null;
  /** The actor's username when the change was made. */
  actor_name: string;
  /** The identifier of the API key used; null from the admin area. */
  api_key: string | null;
  ip: string;
  subject_type: string;
  subject_id: string | null;
  /** JSON objects, secrets redacted; null where the object did not exist. */
  before: string | null;
  after: string | null;
  created_at: ColumnType<DbDate, Date, never>;
}

/** Migration 0016-admin-roles. */
export interface AdminRolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** JSON array of `AdminPermission` (packages/shared/src/admin-roles/admin-permissions.ts). */
  permissions: string;
  created_at: ColumnType<DbDate, Date, never>;
  updated_at: ColumnType<DbDate, Date, Date>;
}

/** The admin area's own tables: the audit log (0015) and roles (0016). */
export interface AuditTables {
  admin_audit_log: AdminAuditLogTable;
  admin_roles: AdminRolesTable;
}
