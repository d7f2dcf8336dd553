import type { FastifyInstance } from 'fastify';
import { presentAccount } from '../../../presenters/user.presenter';

/** /api/client/account: the signed-in user's own account. */
export async function accountRoutes(app: FastifyInstance) {
  // The client plugin's preHandler guarantees a user here.
  app.get('', async (request) => presentAccount(request.user as NonNullable<typeof request.user>));
}
