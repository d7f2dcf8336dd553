import type { AppContext } from '@aerie/panel/app-context';
import type { FastifyInstance } from 'fastify';

/** /api/application/nests and their eggs (reference application API §3.7). */
export async function nestRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
