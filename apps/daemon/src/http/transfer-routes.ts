import { verifyDaemonJwt } from '@aerie/daemon/auth/daemon-jwt';
import { JWT_ERROR_MESSAGES } from '@aerie/daemon/auth/jwt-errors';
import { proveConnection } from '@aerie/daemon/http-kit/connection-guard';
import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import { serverOf } from '@aerie/daemon/http-kit/route-helpers';
import { ServerStateError } from '@aerie/daemon/server/game-server';
import { type IncomingTransfers, TransferRefusal } from '@aerie/daemon/transfers/incoming-transfers';
import type { OutgoingTransfers } from '@aerie/daemon/transfers/outgoing-transfers';
import { TRANSFER_PURPOSE } from '@aerie/shared/transfers/transfers-daemon-wire';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { drainRefusedBody } from './refused-body';
import { NOT_MULTIPART_MESSAGE } from './signed-file-routes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const TRANSFER_MESSAGES = {
  body: 'The transfer needs an http(s) url, a token and the server it moves.',
  notTransferring: 'This server is not being transferred.',
} as const;

const transferRequest = z.object({
  url: z
    .string()
    .max(2048)
    .regex(/^https?:\/\//i),
  token: z.string().min(1).max(8192),
  server: z.object({ uuid: z.string().regex(UUID), start_on_completion: z.boolean().default(false) }),
});

export interface DaemonTransfers {
  outgoing: OutgoingTransfers;
  incoming: IncomingTransfers;
}

/**
 * The source's routes of one server (`:server` resolved, node token checked): `POST …/transfer` starts sending it,
 * `DELETE …/transfer` cancels (wings.md §1.5).
 */
export async function outgoingTransferRoutes(
  scope: FastifyInstance,
  transfers: DaemonTransfers,
): Promise<void> {
  scope.post('/api/servers/:server/transfer', async (request, reply) => {
    const server = serverOf(request);
    const parsed = transferRequest.safeParse(request.body);
    if (!parsed.success || parsed.data.server.uuid.toLowerCase() !== server.uuid) {
      throw new HttpError(422, TRANSFER_MESSAGES.body);
    }
    try {
      transfers.outgoing.start(server, parsed.data);
    } catch (error) {
      if (error instanceof ServerStateError) throw new HttpError(409, error.message);
      throw error;
    }
    return reply.status(202).send();
  });

  scope.delete('/api/servers/:server/transfer', async (request, reply) => {
    if (!transfers.outgoing.cancel(serverOf(request).uuid)) {
      throw new HttpError(409, TRANSFER_MESSAGES.notTransferring);
    }
    return reply.status(202).send();
  });
}

/** The target's node-token route: `DELETE /api/transfers/:server` cancels an incoming transfer. */
export async function incomingTransferCancelRoute(
  scope: FastifyInstance,
  transfers: DaemonTransfers,
): Promise<void> {
  scope.delete<{ Params: { server: string } }>('/api/transfers/:server', async (request, reply) => {
    if (!transfers.incoming.cancel(request.params.server.toLowerCase())) {
      throw new HttpError(409, TRANSFER_MESSAGES.notTransferring);
    }
    return reply.status(202).send();
  });
}

/**
 * `POST /api/transfers`, authorised by the panel's transfer token (signed with this node's token, purpose
 * `transfer`, the server in `server_uuid` and Wings' `sub`), not the node token: the source node never holds this
 * node's token. Answers 200 once the server is here and the panel knows, else the refusal's status and reason.
 */
export async function incomingTransferRoute(
  root: FastifyInstance,
  transfers: DaemonTransfers,
  nodeToken: string,
): Promise<void> {
  await root.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1, fields: 1, parts: 2 },
    });
    scope.post('/api/transfers', async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const token = header.replace(/^Bearer\s+/i, '');
      const result = await verifyDaemonJwt(token, { nodeToken, purpose: TRANSFER_PURPOSE });
      if (!result.ok) throw new HttpError(401, result.error.message);
      const { claims } = result;
      const uuid = claims.server_uuid.toLowerCase();
      const subject = (claims as { sub?: string }).sub;
      if (!UUID.test(uuid) || (subject !== undefined && subject.toLowerCase() !== uuid)) {
        throw new HttpError(401, JWT_ERROR_MESSAGES.claims);
      }
      if (!request.isMultipart()) throw new HttpError(400, NOT_MULTIPART_MESSAGE);
      // A transfer is a long upload from a node the panel vouched for: never closed to make room.
      proveConnection(request.raw.socket);
      request.raw.once('close', () => {
        if (!request.raw.complete) transfers.incoming.cancel(uuid, 'the source node closed the connection');
      });
      try {
        await transfers.incoming.receive(uuid, request.parts());
      } catch (error) {
        drainRefusedBody(request.raw);
        if (error instanceof TransferRefusal) throw new HttpError(error.status, error.message);
        throw error;
      }
      return reply.status(200).send({});
    });
  });
}
