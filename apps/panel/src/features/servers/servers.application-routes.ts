import type { AppContext } from '@aerie/panel/app-context';
import type { FastifyInstance } from 'fastify';

/** /api/application/servers (reference application API §3.5, §4). */
export async function serverRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
