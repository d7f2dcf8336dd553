import type { AppContext } from '@aerie/panel/app-context';
import type { FastifyInstance } from 'fastify';

/** /api/application/nodes, with deployable, configuration and allocations (reference application API §3.3–3.4, §6). */
export async function nodeRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
