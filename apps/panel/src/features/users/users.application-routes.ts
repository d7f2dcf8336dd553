import type { AppContext } from '@aerie/panel/app-context';
import type { FastifyInstance } from 'fastify';

/** /api/application/users (reference application API §3.1). */
export async function userRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
