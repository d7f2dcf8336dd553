import type { PasskeyCeremony } from '@aerie/panel/features/auth/session/session-data';
import type { Sessions } from '@aerie/panel/features/auth/session/sessions';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Keeps a ceremony in the browser's session (a guest's too), beside whatever else the session holds. */
export async function keepCeremony(
  sessions: Sessions,
  request: FastifyRequest,
  reply: FastifyReply,
  ceremony: PasskeyCeremony,
): Promise<void> {
  await sessions.saveData(request, reply, { ...request.session?.data, passkey: ceremony });
}

/**
 * Takes the session's ceremony out before its answer is checked: a challenge is good for one answer, right or
 * wrong, so a captured answer can never be replayed against it.
 */
export async function takeCeremony(
  sessions: Sessions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<PasskeyCeremony | undefined> {
  const data = request.session?.data;
  if (!data?.passkey) return undefined;
  const { passkey, ...rest } = data;
  await sessions.saveData(request, reply, rest);
  return passkey;
}
