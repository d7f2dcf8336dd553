import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { AuditAction, AuditSubjectType } from '@aerie/shared/audit/audit-actions';
import { REDACTED } from '@aerie/shared/audit/audit-wire';
import { deleteAuditEntry, insertAuditEntry } from './audit.repository';

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
  /**
   * Secrets the change set that the object never renders (a user's new password): the entry's `after` lists each
   * as `"[redacted]"`, so the log says that it changed and never what to.
   */
  secretsSet?: readonly string[] | undefined;
  /** What the object alone does not show (where a transfer goes): added to `after` as it is. */
  details?: Record<string, unknown> | undefined;
}

/**
 * Records a change in the admin audit log with the change's own transaction (`tx`), so a change that rolls back
 * leaves no entry and a committed one always has its entry. Services take one of these for each admin change;
 * the route makes it (`auditFor`), bound to its action, its caller and how its object renders.
 */
export interface Audit<T> {
  /** @returns the entry's id, for `withdraw` */
  (tx: Db | Tx, change: AuditChange<T>): Promise<number>;
  /**
   * Takes an entry back with the transaction that undoes its change: a change committed before its node was told,
   * and undone because the node refused it, never happened as far as the log is concerned.
   */
  withdraw(tx: Db | Tx, entryId: number): Promise<void>;
  /** Says the request changed nothing (suspending a suspended server): no entry is due. */
  nothingChanged(): void;
}

/** Field names whose values never reach the log: passwords, tokens, secrets, keys. */
const SECRET = /(password|secret|token|private_key|api_key)/i;
/** When an object was written says nothing about what changed. */
const NOISE = new Set(['created_at', 'updated_at']);

/** The object as the log keeps it: its rendered attributes without timestamps, secrets replaced. */
export function auditSnapshot(attributes: Record<string, unknown>): Record<string, unknown> {
  const snapshot: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(attributes)) {
    if (NOISE.has(field) || field === 'relationships') continue;
    // A flag (`recaptcha_secret_key_set`) says whether a secret exists, never what it is.
    const secret = SECRET.test(field) && value != null && value !== '' && typeof value !== 'boolean';
    snapshot[field] = secret ? REDACTED : redactNested(value);
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
  ): Promise<number> {
    const { before, after, subjectId, secretsSet = [], details = {} } = entry.change;
    const shape = (item: T | null | undefined, extra: Record<string, unknown> = {}) =>
      item == null ? null : JSON.stringify({ ...auditSnapshot(entry.render(item)), ...auditSnapshot(extra) });
    return insertAuditEntry(tx, {
      action: entry.action,
      actor_id: entry.actor.userId,
      actor_name: entry.actor.username,
      api_key: entry.actor.apiKey,
      ip: entry.actor.ip,
      subject_type: entry.subjectType,
      subject_id: subjectId == null ? null : String(subjectId),
      before: shape(before),
      after: shape(after, {
        ...details,
        ...Object.fromEntries(secretsSet.map((field) => [field, REDACTED])),
      }),
      created_at: this.deps.clock(),
    });
  }

  withdraw(tx: Db | Tx, entryId: number): Promise<void> {
    return deleteAuditEntry(tx, entryId);
  }
}

/**
 * The recorder for changes made outside the admin area and the Application API (the `aerie` command line, the
 * first start's setup, test factories): the audit log is about what admins do through the panel.
 */
export const unrecorded = Object.assign(async (_tx: unknown, _change: unknown): Promise<number> => 0, {
  withdraw: async (_tx: unknown, _entryId: number): Promise<void> => {},
  nothingChanged: () => {},
});
