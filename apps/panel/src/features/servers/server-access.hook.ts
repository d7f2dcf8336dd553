import type { Db } from '@aerie/panel/db/database';
import type { User } from '@aerie/panel/features/users/user';
import { type HttpError, notFound } from '@aerie/panel/http/errors';
import { originOf } from '@aerie/panel/http/request-origin';
import { hasPermission } from '@aerie/shared/permissions/can';
import type { Permission } from '@aerie/shared/permissions/permissions';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type { FastifyRequest } from 'fastify';
import {
  accessDenied,
  effectivePermissions,
  isSuspended,
  type ServerAccess,
  serverStateConflict,
} from './server-access';
import type { ServerRecord } from './server-record';
import { findServerAccess } from './servers.repository';

/**
 * Which routes still work while the server is in a conflict state (409 otherwise):
 * - `always`: the bare server (the SPA renders its installing/suspended screens from it);
 * - `root-admin`: root admins while it installs, restores or transfers, not when suspended or the node is down.
 */
export type StateExemption = 'always' | 'root-admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a subuser needs on the server (owners and root admins hold every one). */
    permission?: Permission;
    /** The 403 to answer without `permission`, when the route has its own (else AccessDeniedHttpException). */
    permissionDenied?: () => HttpError;
    stateExemption?: StateExemption;
    /**
     * Finds the route's child resource (an allocation, a schedule…) among the server's own, right after the server
     * itself and before any other check, as upstream binds it: undefined answers 404, whoever asks.
     */
    serverChild?: (db: Db, server: ServerRecord, params: Record<string, string>) => Promise<unknown>;
  }
  interface FastifyRequest {
    /** Set by the server access hook on every route under /api/client/servers/{server}. */
    serverAccess: ServerAccess | null;
    /** What the route's `serverChild` found. */
    serverChild: unknown;
  }
}

/**
 * The one check every server route goes through, in the reference's order: the server exists (404), the caller
 * is its owner, a subuser or a root admin (404, never revealing the server), its state allows the route (409),
 * then the route's permission (403). Driven by the route's `config`.
 */
export async function serverAccessHook(request: FastifyRequest): Promise<void> {
  const { db } = request.server.ctx;
  const user = request.user as User;
  const identifier = (request.params as { server?: string }).server ?? '';
  const found = await findServerAccess(db, identifier, user.id);
  if (!found) throw notFound();
  const { server, node } = found;
  const config = request.routeOptions.config;
  if (config.serverChild) {
    const child = await config.serverChild(db, server, request.params as Record<string, string>);
    if (child === undefined) throw notFound();
    request.serverChild = child;
  }
  const isOwner = server.ownerId === user.id;
  const subuser = isOwner || user.rootAdmin ? undefined : found.subuserPermissions;
  if (!isOwner && !user.rootAdmin && !subuser) throw notFound(serverMessages.notAccessible);

  const state = { server, node, isTransferring: found.isTransferring };
  const conflict = serverStateConflict(state);
  if (conflict && !isExempt(config.stateExemption, user, state)) throw conflict;

  const permissions = effectivePermissions(user, server, subuser);
  if (config.permission && !hasPermission(permissions, config.permission)) {
    throw config.permissionDenied?.() ?? accessDenied();
  }
  request.serverAccess = {
    server,
    node,
    user,
    isOwner,
    isTransferring: state.isTransferring,
    permissions,
    origin: originOf(request),
  };
}

function isExempt(
  exemption: StateExemption | undefined,
  user: User,
  state: Parameters<typeof serverStateConflict>[0],
): boolean {
  if (exemption === 'always') return true;
  if (exemption === 'root-admin') return user.rootAdmin && !isSuspended(state) && !state.node.maintenanceMode;
  return false;
}

/** The access the hook established, in a handler of a route under /api/client/servers/{server}. */
export const accessOf = (request: FastifyRequest) => request.serverAccess as ServerAccess;

/** The child resource the route's `serverChild` found, in its handler. */
export const childOf = <T>(request: FastifyRequest) => request.serverChild as T;
