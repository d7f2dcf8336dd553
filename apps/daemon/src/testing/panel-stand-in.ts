import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  RemoteBackupPartsResponse,
  RemoteBackupStatus,
  RemoteRestoreStatus,
} from '@aerie/shared/backups/backups-daemon-wire';
import type {
  DaemonInstallScript,
  DaemonInstallStatus,
  DaemonServerConfiguration,
} from '@aerie/shared/daemon/remote-wire';
import { parseStopCommand } from '@aerie/shared/eggs/stop-command';
import type { SftpAuthBody } from '@aerie/shared/sftp/sftp-wire';
import Fastify from 'fastify';
import { DEMO_SERVER, nodeStartup } from './server-fixtures';

export const PANEL_TOKEN_ID = 'node-token-id';
export const PANEL_TOKEN = 'node-token-secret-0123456789';

/** The demo egg as shipped (eggs/aerie-demo.json): its real install script and start line. */
const demoEgg = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../eggs/aerie-demo.json', import.meta.url)), 'utf8'),
) as { scripts: { installation: { script: string; container: string; entrypoint: string } } };
export const DEMO_INSTALL_SCRIPT: DaemonInstallScript = {
  container_image: demoEgg.scripts.installation.container,
  entrypoint: demoEgg.scripts.installation.entrypoint,
  script: demoEgg.scripts.installation.script,
};

/** A server configuration as the panel sends it, running the demo server from the repository by default. */
export function demoConfiguration(
  uuid: string,
  overrides: {
    invocation?: string;
    done?: string[];
    stop?: string;
    diskMb?: number;
    memoryMb?: number;
    suspended?: boolean;
    skipScripts?: boolean;
    environment?: DaemonServerConfiguration['settings']['environment'];
  } = {},
): DaemonServerConfiguration {
  return {
    settings: {
      uuid,
      meta: { name: `Server ${uuid.slice(0, 8)}`, description: '' },
      suspended: overrides.suspended ?? false,
      environment: {
        MOTD: 'Hello from the stand-in',
        MAX_PLAYERS: 5,
        P_SERVER_UUID: uuid,
        ...overrides.environment,
      },
      invocation: overrides.invocation ?? nodeStartup(DEMO_SERVER),
      skip_egg_scripts: overrides.skipScripts ?? false,
      build: {
        memory_limit: overrides.memoryMb ?? 256,
        swap: 0,
        io_weight: 500,
        cpu_limit: 0,
        threads: null,
        disk_space: overrides.diskMb ?? 0,
        oom_disabled: false,
      },
      container: { image: 'ghcr.io/pterodactyl/yolks:nodejs_20' },
      allocations: {
        force_outgoing_ip: false,
        default: { ip: '127.0.0.1', port: 0 },
        mappings: { '127.0.0.1': [0] },
      },
      mounts: [],
      egg: { id: 'egg-demo', file_denylist: [] },
      labels: {},
    },
    process_configuration: {
      startup: { done: overrides.done ?? ['Server started on '], user_interaction: [], strip_ansi: false },
      stop: parseStopCommand(overrides.stop ?? 'stop'),
      configs: [],
    },
  };
}

export interface PanelStandIn {
  url: string;
  servers: Map<string, DaemonServerConfiguration>;
  installScripts: Map<string, DaemonInstallScript>;
  /** Every POST …/install the daemon made, in order. */
  installReports: { uuid: string; body: DaemonInstallStatus }[];
  resets: number;
  /** Every request as `METHOD path`, with the Authorization header it carried. */
  requests: { line: string; authorization: string | undefined }[];
  /** Answers the next `count` requests with this status (to test retries and refusals). */
  failNext(status: number, count: number): void;
  /** Decides `POST /api/remote/sftp/auth` (403 until a test sets it); every body is kept in `sftpLogins`. */
  sftpAuth: (
    body: SftpAuthBody,
  ) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;
  sftpLogins: SftpAuthBody[];
  /** Every `POST /api/remote/backups/{uuid}` body, in order. */
  backupReports: { uuid: string; body: RemoteBackupStatus }[];
  /** Every `POST /api/remote/backups/{uuid}/restore` body, in order. */
  restoreReports: { uuid: string; body: RemoteRestoreStatus }[];
  /** Answers `GET /api/remote/backups/{uuid}?size=N` (404 until a test sets it). */
  backupParts: (
    uuid: string,
    size: number,
  ) =>
    | RemoteBackupPartsResponse
    | { status: number; body?: unknown }
    | Promise<RemoteBackupPartsResponse | { status: number; body?: unknown }>;
  /** Every `POST /api/remote/servers/{uuid}/transfer/success|failure`, in order. */
  transferReports: { uuid: string; outcome: 'success' | 'failure'; reason?: string }[];
  /** The status `…/transfer/success` answers (204 unless a test sets it). */
  transferSuccessStatus: number;
  /** Resolves with the next transfer report of `uuid` (or the one already received). */
  waitForTransferReport(
    uuid: string,
    timeoutMs?: number,
  ): Promise<{ outcome: 'success' | 'failure'; reason?: string }>;
  /** Resolves with the next backup report of `uuid` (or the one already received). */
  waitForBackupReport(uuid: string, timeoutMs?: number): Promise<RemoteBackupStatus>;
  /** Resolves with the next restore report of `uuid` (or the one already received). */
  waitForRestoreReport(uuid: string, timeoutMs?: number): Promise<RemoteRestoreStatus>;
  close(): Promise<void>;
}

/** A real HTTP panel on port 0 serving /api/remote/* for the node `PANEL_TOKEN_ID.PANEL_TOKEN`. */
export async function startPanelStandIn(): Promise<PanelStandIn> {
  const app = Fastify({ logger: false });
  const servers = new Map<string, DaemonServerConfiguration>();
  const installScripts = new Map<string, DaemonInstallScript>();
  const installReports: PanelStandIn['installReports'] = [];
  const requests: PanelStandIn['requests'] = [];
  const failures = { status: 0, count: 0 };
  let resets = 0;
  const missing = { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Server not found.' }] };

  app.addHook('onRequest', async (request, reply) => {
    requests.push({ line: `${request.method} ${request.url}`, authorization: request.headers.authorization });
    if (failures.count > 0) {
      failures.count -= 1;
      return reply.status(failures.status).send({ errors: [{ detail: 'Injected failure.' }] });
    }
    if (request.headers.authorization !== `Bearer ${PANEL_TOKEN_ID}.${PANEL_TOKEN}`) {
      return reply.status(403).send({ errors: [{ detail: 'This action is unauthorized.' }] });
    }
  });
  app.get<{ Querystring: { page?: string; per_page?: string } }>('/api/remote/servers', async (request) => {
    const perPage = Number(request.query.per_page ?? 50);
    const page = Number(request.query.page ?? 1);
    const all = [...servers.values()];
    const data = all
      .slice((page - 1) * perPage, page * perPage)
      .map((c) => ({ uuid: c.settings.uuid, ...c }));
    const lastPage = Math.max(1, Math.ceil(all.length / perPage));
    return { data, meta: { current_page: page, last_page: lastPage, per_page: perPage, total: all.length } };
  });
  app.post('/api/remote/servers/reset', async (_request, reply) => {
    resets += 1;
    return reply.status(204).send();
  });
  app.get<{ Params: { uuid: string } }>('/api/remote/servers/:uuid', async (request, reply) => {
    const configuration = servers.get(request.params.uuid);
    return configuration ?? reply.status(404).send(missing);
  });
  app.get<{ Params: { uuid: string } }>('/api/remote/servers/:uuid/install', async (request, reply) => {
    if (!servers.has(request.params.uuid)) return reply.status(404).send(missing);
    return installScripts.get(request.params.uuid) ?? DEMO_INSTALL_SCRIPT;
  });
  app.post<{ Params: { uuid: string }; Body: DaemonInstallStatus }>(
    '/api/remote/servers/:uuid/install',
    async (request, reply) => {
      installReports.push({ uuid: request.params.uuid, body: request.body });
      return reply.status(204).send();
    },
  );
  const sftpLogins: SftpAuthBody[] = [];
  app.post<{ Body: SftpAuthBody }>('/api/remote/sftp/auth', async (request, reply) => {
    sftpLogins.push(request.body);
    const answer = await standIn.sftpAuth(request.body);
    return reply.status(answer.status).send(answer.body ?? {});
  });
  const backupReports: PanelStandIn['backupReports'] = [];
  const restoreReports: PanelStandIn['restoreReports'] = [];
  app.get<{ Params: { uuid: string }; Querystring: { size?: string } }>(
    '/api/remote/backups/:uuid',
    async (request, reply) => {
      const answer = await standIn.backupParts(request.params.uuid, Number(request.query.size));
      if ('status' in answer) return reply.status(answer.status).send(answer.body ?? {});
      return answer;
    },
  );
  app.post<{ Params: { uuid: string }; Body: RemoteBackupStatus }>(
    '/api/remote/backups/:uuid',
    async (request, reply) => {
      backupReports.push({ uuid: request.params.uuid, body: request.body });
      return reply.status(204).send();
    },
  );
  app.post<{ Params: { uuid: string }; Body: RemoteRestoreStatus }>(
    '/api/remote/backups/:uuid/restore',
    async (request, reply) => {
      restoreReports.push({ uuid: request.params.uuid, body: request.body });
      return reply.status(204).send();
    },
  );
  const transferReports: PanelStandIn['transferReports'] = [];
  app.post<{ Params: { uuid: string; outcome: string }; Body: { reason?: string } | undefined }>(
    '/api/remote/servers/:uuid/transfer/:outcome',
    async (request, reply) => {
      const outcome = request.params.outcome === 'success' ? 'success' : 'failure';
      if (outcome === 'success' && standIn.transferSuccessStatus !== 204) {
        return reply.status(standIn.transferSuccessStatus).send({ errors: [{ detail: 'Refused.' }] });
      }
      transferReports.push({ uuid: request.params.uuid, outcome, reason: request.body?.reason });
      return reply.status(204).send();
    },
  );
  const waitFor = async <T>(
    list: { uuid: string; body: T }[] | (() => { uuid: string; body: T }[]),
    uuid: string,
    timeoutMs: number,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (typeof list === 'function' ? list() : list).find((report) => report.uuid === uuid);
      if (found) return found.body;
      if (Date.now() > deadline) throw new Error(`No report for ${uuid} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const standIn: PanelStandIn = {
    url: `http://127.0.0.1:${port}`,
    servers,
    installScripts,
    installReports,
    get resets() {
      return resets;
    },
    requests,
    failNext(status, count) {
      failures.status = status;
      failures.count = count;
    },
    sftpAuth: () => ({ status: 403, body: { errors: [{ detail: 'Not set up.' }] } }),
    sftpLogins,
    backupReports,
    restoreReports,
    backupParts: () => ({ status: 404, body: { errors: [{ detail: 'Not set up.' }] } }),
    transferReports,
    transferSuccessStatus: 204,
    waitForTransferReport: (uuid, timeoutMs = 20_000) =>
      waitFor(() => transferReports.map(({ uuid: id, ...body }) => ({ uuid: id, body })), uuid, timeoutMs),
    waitForBackupReport: (uuid, timeoutMs = 20_000) => waitFor(backupReports, uuid, timeoutMs),
    waitForRestoreReport: (uuid, timeoutMs = 20_000) => waitFor(restoreReports, uuid, timeoutMs),
    close: () => app.close(),
  };
  return standIn;
}
