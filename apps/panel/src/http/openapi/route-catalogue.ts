import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body's rules: the handler validates with it (`validateRouteBody`), and the OpenAPI document shows it. */
    body?: z.ZodObject | z.ZodType;
    /** The query string's rules (an object schema): the handler validates with it (`validateRouteQuery`), and the OpenAPI document lists its keys as query parameters. */
    query?: z.ZodType;
    /** One line for the API documentation. */
    summary?: string;
  }
}

/** A route of the public APIs as registered: what the OpenAPI document is made of. */
export interface CatalogedRoute {
  method: string;
  url: string;
  config: {
    body?: z.ZodType;
    query?: z.ZodType;
    summary?: string;
    adminResource?: string;
    permission?: string | null;
  };
}

const DOCUMENTED = /^\/api\/(client|application)(\/|$)/;

/**
 * Records every route under /api/client and /api/application as Fastify registers it, so the API documentation
 * lists exactly the routes that exist (nothing to keep in step by hand). Call before the surfaces register.
 */
export function catalogueApiRoutes(app: FastifyInstance): CatalogedRoute[] {
  const routes: CatalogedRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!DOCUMENTED.test(route.url)) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url, config: (route.config ?? {}) as CatalogedRoute['config'] });
    }
  });
  return routes;
}
