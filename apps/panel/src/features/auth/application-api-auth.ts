import type { Db } from '@aerie/panel/db/database';
import { accessBitsOf } from '@aerie/panel/features/admin-roles/admin-role.policy';
import { APPLICATION_KEY } from '@aerie/panel/features/api-keys/api-key';
import type { IncludeRegistry, RenderContext } from '@aerie/panel/http/application/transformer';
import { forbidden } from '@aerie/panel/http/errors';
import { type AdminGrant, canInAdmin, permissionFor } from '@aerie/shared/admin-roles/admin-permissions';
import { ACCESS_READ, ACCESS_WRITE, type AdminResource } from '@aerie/shared/api-keys/application-keys-wire';
import { applicationApiMessages } from '@aerie/shared/application-api/application-api-messages';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** /api/application: what the caller may do in the admin area (root, or their role's permissions). */
    adminGrant: AdminGrant | null;
  }
  interface FastifyContextConfig {
    /**
     * /api/application: the resource an application key needs access to for this route (`r_<resource>`): read
     * for GET, write for any other method. `'keys'` marks the routes that manage the caller's own application keys,
     * `'settings'` those of the panel settings and `'roles'` those of admin roles, which an application key may
     * never call. An admin below root needs the matching permission of their role (`<area>.read|write`; any
     * admin manages their own keys); a route with no resource is for root admins only.
     */
    adminResource?: AdminResource | 'keys' | 'settings' | 'roles';
    /**
     * The access bits an application key needs on `adminResource` for this route, when the method's default (GET
     * read, anything else write) is too little: a GET that hands out a secret acting with write power (the node's
     * daemon token) asks for read and write.
     */
    adminAccess?: number;
  }
}

/**
 * The access bits the request's credential holds on `resource`: an application key's own bits, never more than
 * its maker holds now (a key made before its maker's role narrowed loses what the role lost); a session or an
 * account key holds what its user holds.
 */
export function accessBits(request: FastifyRequest, resource: AdminResource): number {
  const grant = request.adminGrant;
  const held = grant ? accessBitsOf(grant, resource) : 0;
  const key = request.apiKey;
  return key && key.keyType === APPLICATION_KEY ? key.access[resource] & held : held;
}

/** What the caller of an Application API route may do (the surface admitted only callers with a grant). */
export function grantOf(request: FastifyRequest): AdminGrant {
  if (!request.adminGrant) throw forbidden(applicationApiMessages.notAdmin);
  return request.adminGrant;
}

/** True when the request's credential may read `resource`. */
export const canRead = (request: FastifyRequest, resource: AdminResource): boolean =>
  (accessBits(request, resource) & ACCESS_READ) !== 0;

/**
 * The route's resource check, after the caller is known to be an admin (reference §1.3): the bits for the method
 * (GET read, anything else write), tested bitwise as upstream does, or every bit of the route's `adminAccess`,
 * from the caller's role and, for an application key, from the key as well. A root admin's session or account
 * key passes every resource.
 * @throws HttpError 403 "This action is unauthorized."
 */
export function assertResourceAccess(request: FastifyRequest): void {
  const { adminResource: resource, adminAccess } = request.routeOptions.config ?? {};
  const grant = request.adminGrant;
  const key = request.apiKey?.keyType === APPLICATION_KEY ? request.apiKey : null;
  const write = !(request.method === 'GET' || request.method === 'HEAD');
  if (!resource) {
    if (grant !== 'root') throw forbidden(applicationApiMessages.unauthorized);
    return;
  }
  if (key && resource === 'keys') throw forbidden(applicationApiMessages.keysNotByApplicationKey);
  if (key && resource === 'settings') throw forbidden(applicationApiMessages.settingsNotByApplicationKey);
  if (key && resource === 'roles') throw forbidden(applicationApiMessages.rolesNotByApplicationKey);
  if (resource === 'keys') return;
  if (resource === 'settings' || resource === 'roles') {
    if (!grant || !canInAdmin(grant, permissionFor(resource, write))) {
      throw forbidden(applicationApiMessages.unauthorized);
    }
    return;
  }
  const needed = adminAccess ?? (write ? ACCESS_WRITE : ACCESS_READ);
  if ((accessBits(request, resource) & needed) !== needed)
    throw forbidden(applicationApiMessages.unauthorized);
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
