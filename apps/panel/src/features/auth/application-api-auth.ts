import type { Db } from '@aerie/panel/db/database';
import { APPLICATION_KEY } from '@aerie/panel/features/api-keys/api-key';
import type { IncludeRegistry, RenderContext } from '@aerie/panel/http/application/transformer';
import { forbidden } from '@aerie/panel/http/errors';
import { ACCESS_READ, ACCESS_WRITE, type AdminResource } from '@aerie/shared/api-keys/application-keys-wire';
import { applicationApiMessages } from '@aerie/shared/application-api/application-api-messages';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * /api/application: the resource an application key needs access to for this route (`r_<resource>`): read
     * for GET, write for any other method. `'keys'` marks the routes that manage application keys and `'settings'`
     * those of the panel settings, which an application key may never call.
     */
    adminResource?: AdminResource | 'keys' | 'settings';
    /**
     * The access bits an application key needs on `adminResource` for this route, when the method's default (GET
     * read, anything else write) is too little: a GET that hands out a secret acting with write power (the node's
     * daemon token) asks for read and write.
     */
    adminAccess?: number;
  }
}

/** True when the request's credential may read `resource` (sessions and a root admin's account key may). */
export function canRead(request: FastifyRequest, resource: AdminResource): boolean {
  const key = request.apiKey;
  return !key || key.keyType !== APPLICATION_KEY || (key.access[resource] & ACCESS_READ) !== 0;
}

/**
 * The route's resource check, after the caller is known to be a root admin (reference §1.3): an application
 * key needs the bit for the method (GET read, anything else write), tested bitwise as upstream does, or every
 * bit of the route's `adminAccess`; a session or a root admin's account key passes every resource.
 * @throws HttpError 403 "This action is unauthorized."
 */
export function assertResourceAccess(request: FastifyRequest): void {
  const { adminResource: resource, adminAccess } = request.routeOptions.config ?? {};
  const key = request.apiKey;
  if (!resource || !key || key.keyType !== APPLICATION_KEY) return;
  if (resource === 'keys') throw forbidden(applicationApiMessages.keysNotByApplicationKey);
  if (resource === 'settings') throw forbidden(applicationApiMessages.settingsNotByApplicationKey);
  const needed =
    adminAccess ?? (request.method === 'GET' || request.method === 'HEAD' ? ACCESS_READ : ACCESS_WRITE);
  if ((key.access[resource] & needed) !== needed) throw forbidden(applicationApiMessages.unauthorized);
}

/**
 * What rendering an Application API answer needs: the database, the include registry and the caller's read access
 * for includes.
 */
export const renderContextFor = (
  request: FastifyRequest,
  { db, applicationIncludes }: { db: Db; applicationIncludes: IncludeRegistry },
): RenderContext => ({
  db,
  includes: applicationIncludes,
  canRead: (resource) => canRead(request, resource),
});
