import { PanelRequestError } from '@aerie/daemon/panel-client/panel-client';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-errors';

/** The panel's answer, as the daemon's own error: a missing server stays 404, anything else is a bad gateway. */
export function panelFailure(error: unknown): never {
  if (error instanceof PanelRequestError) {
    throw new HttpError(
      error.status === 404 ? 404 : 502,
      `Could not load the server from the panel: ${error.message}`,
    );
  }
  throw error;
}

/** The server named by `:server`, else 404 (the route never runs). */
export function serverOf(request: FastifyRequest): ManagedServer {
  return (request as FastifyRequest & { managedServer: ManagedServer }).managedServer;
}
