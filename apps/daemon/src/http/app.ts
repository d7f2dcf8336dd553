import type { BackupService } from '@aerie/daemon/backups/backup-service';
import { FilesystemError, isDiskFull } from '@aerie/daemon/fs/filesystem-error';
import {
  connectionServerOptions,
  guardConnections,
  proveConnection,
} from '@aerie/daemon/http-kit/connection-guard';
import {
  HttpError,
  INTERNAL_ERROR_MESSAGE,
  NOT_FOUND_MESSAGE,
  UNPARSABLE_BODY_MESSAGE,
} from '@aerie/daemon/http-kit/http-errors';
import type { RemotePulls } from '@aerie/daemon/pull/remote-pulls';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import { systemInfo } from '@aerie/daemon/system/system-info';
import type { AdmissionLimits } from '@aerie/shared/net/admission';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { admitDaemonRequests } from './admission';
import { type ConnectionLimits, defaultConnectionLimits } from './connection-limits';
import { corsHook } from './cors';
import { nodeTokenAuth } from './node-auth';
import { serverRoutes } from './server-routes';
import { type DaemonTransfers, incomingTransferCancelRoute, incomingTransferRoute } from './transfer-routes';

/** What the HTTP layer needs from the daemon's configuration. */
export interface DaemonAppConfig {
  /** The node token the panel sends as `Authorization: Bearer <token>` (also the websocket JWT key). */
  token: string;
  /** The panel's URL: the default CORS origin and the origin the websocket accepts. */
  panelUrl: string;
  allowedOrigins: readonly string[];
  /** DAEMON_DATA_DIR: GET /api/system reports the free space of its disk (null without it). */
  dataDirectory?: string;
}

export interface DaemonAppOptions {
  config: DaemonAppConfig;
  manager: ServerManager;
  logger?: FastifyServerOptions['logger'];
  /** With it, the backup routes `POST …/backup`, `POST …/backup/:backup/restore`, `DELETE …/backup/:backup`. */
  backups?: BackupService;
  /** With it, the transfer routes: `POST|DELETE /api/servers/:server/transfer`, `POST /api/transfers`, `DELETE /api/transfers/:server`. */
  transfers?: DaemonTransfers;
  /** The remote downloads (`…/files/pull`) with the node's DAEMON_PULL_* settings; the defaults without it. */
  pulls?: RemotePulls;
  /**
   * Admission control (packages/shared/src/net/admission.ts): 503 with Retry-After while the event loop is behind
   * or too many requests are in flight. Off without it (tests); the daemon's entry point gives DAEMON_MAX_*.
   */
  admission?: AdmissionLimits;
  /** Bounds on connections and their time-outs; `defaultConnectionLimits()` for what is not given. */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Routes that authenticate themselves (the console websocket `GET /api/servers/:server/ws`, whose JWT travels
   * inside the socket). Registered on the root app: no node-token check, CORS and error handling apply.
   */
  registerWebsocket?: (
    app: FastifyInstance,
    manager: ServerManager,
    config: DaemonAppConfig,
  ) => Promise<void>;
  /**
   * Routes authorised by a panel-signed URL instead of the node token (the signed file download and upload).
   * Registered on the root app like the websocket: no node-token check, CORS and error handling apply.
   */
  registerPublic?: (app: FastifyInstance, manager: ServerManager, config: DaemonAppConfig) => Promise<void>;
  /**
   * More node-token routes (e.g. `POST /api/servers/:server/ws/deny`, the files API). The scope already refused
   * requests without the right token; register full paths. Unknown servers are the caller's to answer with 404.
   */
  registerProtected?: (
    scope: FastifyInstance,
    manager: ServerManager,
    config: DaemonAppConfig,
  ) => Promise<void>;
}

/**
 * The daemon's HTTP API (Wings §1.3): CORS on everything, the node token on /api/* except the websocket, and
 * bounded connections (per address, in all, header and idle time-outs: connection-limits.ts).
 */
export function buildDaemonApp(options: DaemonAppOptions): FastifyInstance {
  const { config, manager } = options;
  const limits: ConnectionLimits = { ...defaultConnectionLimits(), ...options.connectionLimits };
  const app = Fastify({
    ...connectionServerOptions(limits),
    logger: options.logger ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    // The panel polls every server's usage: a line per request would bury the daemon's own messages under
    // `aerie up`. Errors are still logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
  });

  guardConnections(app, limits);
  if (options.admission) admitDaemonRequests(app, options.admission);

  // An empty JSON body is no body: the panel posts /install, /sync… without one.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, UNPARSABLE_BODY_MESSAGE), undefined);
    }
  });
  app.addHook('onRequest', corsHook(config.panelUrl, config.allowedOrigins));
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) return reply.status(error.statusCode).send({ error: error.message });
    // A full disk wherever it was met (a file, a staged upload, the used-token file): one warning line, no stack,
    // and the file errors' answer. It passes on its own once space is freed.
    const diskFull = isDiskFull(error) ? new FilesystemError('ENOSPACE') : undefined;
    if (diskFull || (error instanceof FilesystemError && error.code === 'ENOSPACE')) {
      request.log.warn(`${request.method} ${request.url.split('?')[0]} refused: the disk is full`);
    }
    // The jailed filesystem's refusals carry Wings' status and text (404 outside/missing, 403 denylist, 400).
    const refusal = diskFull ?? error;
    if (refusal instanceof FilesystemError) {
      return reply.status(refusal.status).send({ error: refusal.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ error: status === 404 ? NOT_FOUND_MESSAGE : UNPARSABLE_BODY_MESSAGE });
    }
    request.log.error(error);
    return reply.status(500).send({ error: INTERNAL_ERROR_MESSAGE });
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: NOT_FOUND_MESSAGE }));

  if (options.registerWebsocket)
    app.register(async (root) => options.registerWebsocket?.(root, manager, config));
  if (options.registerPublic) app.register(async (root) => options.registerPublic?.(root, manager, config));
  const { transfers } = options;
  if (transfers) app.register(async (root) => incomingTransferRoute(root, transfers, config.token));
  app.register(async (scope) => {
    scope.addHook('onRequest', nodeTokenAuth(config.token));
    // Past the token check (a refusal ends the hooks): the panel's connection is never closed to make room.
    scope.addHook('onRequest', async (request) => proveConnection(request.raw.socket));
    scope.get('/api/system', () => systemInfo(config.dataDirectory));
    await serverRoutes(scope, manager, options.backups, options.pulls, transfers);
    if (transfers) await incomingTransferCancelRoute(scope, transfers);
    await options.registerProtected?.(scope, manager, config);
  });
  return app;
}
