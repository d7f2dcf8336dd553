import type { AppContext } from '@aerie/panel/app-context';
import { presentAllocation } from '@aerie/panel/features/servers/server.presenter';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import type { AllocationRecord } from '@aerie/panel/features/servers/server-relations';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { allocationNotesBodySchema } from '@aerie/shared/network/network-bodies';
import type { AllocationListResponse, AllocationResponse } from '@aerie/shared/network/network-wire';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { findServerAllocation } from './network.repository';

/** `{allocation}` among the server's own allocations (404 before any other check, as upstream binds it). */
const allocationChild: FastifyContextConfig['serverChild'] = (db, server, params) =>
  findServerAllocation(db, server.id, params.allocation);

/** `/api/client/servers/{server}/network/allocations*` (reference §7.2 "Network allocations"). */
export async function networkRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { network } = ctx;
  const base = '/:server/network/allocations';

  app.get(
    base,
    { config: { permission: 'allocation.read', summary: 'List the server’s allocations' } },
    async (request): Promise<AllocationListResponse> => {
      const access = accessOf(request);
      const primaryId = await network.primaryId(access.server.id);
      const allocations = await network.list(access);
      return {
        object: 'list',
        data: allocations.map((allocation) => presentAllocation(allocation, primaryId)),
      };
    },
  );

  app.post(
    base,
    { config: { permission: 'allocation.create', summary: 'Add a free allocation to the server' } },
    async (request): Promise<AllocationResponse> => {
      const access = accessOf(request);
      const allocation = await network.create(access);
      return presentAllocation(allocation, await network.primaryId(access.server.id));
    },
  );

  app.post(
    `${base}/:allocation`,
    {
      config: {
        permission: 'allocation.update',
        serverChild: allocationChild,
        body: allocationNotesBodySchema,
        summary: 'Set the notes of an allocation',
      },
    },
    async (request): Promise<AllocationResponse> => {
      const access = accessOf(request);
      const { notes } = validateRouteBody<typeof allocationNotesBodySchema>(request);
      const allocation = await network.updateNotes(access, childOf<AllocationRecord>(request), notes);
      return presentAllocation(allocation, await network.primaryId(access.server.id));
    },
  );

  app.post(
    `${base}/:allocation/primary`,
    {
      config: {
        permission: 'allocation.update',
        serverChild: allocationChild,
        summary: 'Make an allocation the server’s primary',
      },
    },
    async (request): Promise<AllocationResponse> => {
      const access = accessOf(request);
      const allocation = await network.setPrimary(access, childOf<AllocationRecord>(request));
      return presentAllocation(allocation, allocation.id);
    },
  );

  app.delete(
    `${base}/:allocation`,
    {
      config: {
        permission: 'allocation.delete',
        serverChild: allocationChild,
        summary: 'Give an allocation back to the node',
      },
    },
    async (request, reply) => {
      await network.remove(accessOf(request), childOf<AllocationRecord>(request));
      return reply.status(204).send();
    },
  );
}
