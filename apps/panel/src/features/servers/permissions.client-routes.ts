import { systemPermissionsResponse } from '@aerie/shared/permissions/permissions';
import type { FastifyInstance } from 'fastify';

/** GET /api/client/permissions: the subuser permission catalogue (reference §5), as the shared package defines it. */
export async function permissionRoutes(app: FastifyInstance) {
  app.get('', async () => systemPermissionsResponse());
}
