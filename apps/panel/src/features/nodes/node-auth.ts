import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { badRequest, forbidden, HttpError } from '@aerie/panel/http/errors';
import type { FastifyRequest } from 'fastify';
import { type NodeRecord, toNodeRecord } from './node-record';
import { findNodeRowByTokenId } from './nodes.repository';

export const remoteAuthMessages = {
  missing: 'Access to this endpoint must include an Authorization header.',
  malformed: 'The Authorization header provided was not in a valid format.',
  denied: 'You are not authorized to access this resource.',
} as const;

/** Equal-time comparison of two secrets of any length (hashing first evens out the lengths). */
const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * The node calling /api/remote, from `Authorization: Bearer <token id>.<token>` (Pterodactyl's
 * DaemonAuthenticate): the token id finds the node, its sealed token is opened and compared in constant time.
 * An unknown id and a wrong token are refused alike, so the answer does not tell which ids exist.
 * @throws HttpError 401 without the header, 400 when it is not `<id>.<token>`, 403 when it does not match
 */
export async function authenticateNode(
  db: Db,
  secretBox: SecretBox,
  request: FastifyRequest,
): Promise<NodeRecord> {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!bearer) {
    throw new HttpError(401, 'HttpException', remoteAuthMessages.missing, {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
  const parts = bearer.split('.');
  const [id, token] = parts;
  if (parts.length !== 2 || !id || !token) throw badRequest(remoteAuthMessages.malformed);
  const row = await findNodeRowByTokenId(db, id);
  let expected: string | null = null;
  try {
    expected = row ? secretBox.open(row.daemon_token) : null;
  } catch {
    // A token sealed under another app key opens to nothing: the node cannot authenticate.
  }
  // Compare even for an unknown id, so both refusals take the same time.
  const matches = sameSecret(expected ?? '', token) && expected !== null;
  if (!row || !matches) throw forbidden(remoteAuthMessages.denied);
  return toNodeRecord(row);
}

/** The node the remote surface authenticated for this request. */
export const remoteNodeOf = (request: FastifyRequest) => request.remoteNode as NodeRecord;
