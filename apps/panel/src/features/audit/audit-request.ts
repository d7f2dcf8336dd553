import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import {
  type AuditAction,
  type AuditSubjectType,
  auditSubjectTypes,
} from '@aerie/shared/audit/audit-actions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Audit, AuditActor, AuditChange, AuditLog } from './audit-log';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * /api/application: the audit action a changing route records (`false` for one that changes nothing, such as
     * sending a test mail). Every route other than GET must say which: the surface refuses to start otherwise.
     */
    audit?: AuditAction | false;
  }
  interface FastifyRequest {
    /** Audit entries this request recorded (a successful change with none is logged as an error). */
    auditEntries?: number;
    /** The route's service said nothing changed (no entry is due). */
    auditNothingChanged?: boolean;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The signed-in caller of an Application API request, and where the request came from. */
function auditActorOf(request: FastifyRequest): AuditActor {
  const user = signedInUser(request);
  return {
    userId: user.id,
    username: user.username,
    apiKey: request.apiKey?.identifier ?? null,
    ip: request.ip,
  };
}

/**
 * The recorder a route hands its service: the route's own `config.audit` action, the caller, and how the changed
 * object renders (its Application API transformer, whose `object` names the subject type).
 */
export function auditFor<T>(
  log: AuditLog,
  request: FastifyRequest,
  subject: Pick<Transformer<T>, 'object' | 'attributes'>,
): Audit<T> {
  const action = request.routeOptions.config?.audit;
  if (!action) throw new Error(`${request.routeOptions.url} declares no audit action`);
  if (!(auditSubjectTypes as readonly string[]).includes(subject.object)) {
    throw new Error(`"${subject.object}" is not an audit subject type`);
  }
  const actor = auditActorOf(request);
  const record = async (tx: Db | Tx, change: AuditChange<T>) => {
    const id = await log.record(tx, {
      action,
      actor,
      subjectType: subject.object as AuditSubjectType,
      render: subject.attributes,
      change,
    });
    request.auditEntries = (request.auditEntries ?? 0) + 1;
    return id;
  };
  return Object.assign(record, {
    withdraw: (tx: Db | Tx, entryId: number) => log.withdraw(tx, entryId),
    nothingChanged: () => {
      request.auditNothingChanged = true;
    },
  });
}

/**
 * Makes every changing route of the surface say what it records, and logs a successful change that recorded
 * nothing (a route that forgot to pass its recorder on), so a gap shows in the logs rather than silently.
 */
export function requireAudit(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => READS.has(method))) return;
    if (route.config?.audit === undefined) {
      throw new Error(`${methods.join(',')} ${route.url} must declare config.audit (an action, or false)`);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const action = request.routeOptions.config?.audit;
    if (action && reply.statusCode < 300 && !request.auditEntries && !request.auditNothingChanged) {
      request.log.error({ action, url: request.url }, 'a change was made without its audit entry');
    }
    return payload;
  });
}
