import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { AuditAction, AuditSubjectType } from '@aerie/shared/audit/audit-actions';
import { REDACTED } from '@aerie/shared/audit/audit-wire';
import { insertAuditEntry } from './audit.repository';

/** Who made a change, and from where. */
export interface AuditActor {
  userId: number;
  username: string;
  /** The identifier of the API key used; null for the admin area's session. */
  apiKey: string | null;
  ip: string;
}

/** One change to one object, in the object's own shape (what its transformer renders). */
export interface AuditChange<T> {
  subjectId: string | number | null;
  /** As it was; null or absent when the change created it. */
  before?: T | null | undefined;
  /** As it became; null or absent when the change deleted it. */
  after?: T | null | undefined;
}

/**
 * Records a change in the admin audit log with the change's own transaction (`tx`), so a change that rolls back
 * leaves no entry and a committed one always has its entry. Services take one of these for each admin change;
 * the route makes it (`auditFor`), bound to its action, its caller and how its object renders.
 */
export type Audit<T> = (tx: Db | Tx, change: AuditChange<T>) => Promise<void>;

/** Field names whose values never reach the log: passwords, tokens, secrets, keys. */
const SECRET = /(password|secret|token|private_key|api_key)/i;
/** When an object was written says nothing about what changed. */
const NOISE = new Set(['created_at', 'updated_at']);

/** The object as the log keeps it: its rendered attributes without timestamps, secrets replaced. */
export function auditSnapshot(attributes: Record<string, unknown>): Record<string, unknown> {
  const snapshot: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(attributes)) {
    if (NOISE.has(field) || field === 'relationships') continue;
    snapshot[field] = SECRET.test(field) && value != null && value !== '' ? REDACTED : redactNested(value);
  }
  return snapshot;
}

function redactNested(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactNested);
  if (value && typeof value === 'object') return auditSnapshot(value as Record<string, unknown>);
  return value;
}

export class AuditLog {
  constructor(private readonly deps: { clock: () => Date }) {}

  /** Writes one entry; `render` gives the object's attributes (its Application API transformer). */
  async record<T>(
    tx: Db | Tx,
    entry: {
      action: AuditAction;
      actor: AuditActor;
      subjectType: AuditSubjectType;
      render: Transformer<T>['attributes'];
      change: AuditChange<T>;
    },
  ): Promise<void> {
    const { before, after, subjectId } = entry.change;
    const shape = (item: T | null | undefined) =>
      item == null ? null : JSON.stringify(auditSnapshot(entry.render(item)));
    await insertAuditEntry(tx, {
      action: entry.action,
      actor_id: entry.actor.userId,
      actor_name: entry.actor.username,
      api_key: entry.actor.apiKey,
      ip: entry.actor.ip,
      subject_type: entry.subjectType,
      subject_id: subjectId == null ? null : String(subjectId),
      before: shape(before),
      after: shape(after),
      created_at: this.deps.clock(),
    });
  }
}

/**
 * The recorder for changes made outside the admin area and the Application API (the `aerie` command line, the
 * first start's setup, test factories): the audit log is about what admins do through the panel.
 */
export const unrecorded = async (_tx: unknown, _change: unknown): Promise<void> => {};
