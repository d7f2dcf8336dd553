import { createReadStream } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { UsedTokenStore } from '@aerie/daemon/auth/used-token-store';
import { backupDownloadRoute } from '@aerie/daemon/backups/backup-download';
import type { BackupService } from '@aerie/daemon/backups/backup-service';
import { FilesystemError, type FilesystemErrorCode } from '@aerie/daemon/fs/filesystem-error';
import { proveConnection } from '@aerie/daemon/http-kit/connection-guard';
import { attachmentDisposition } from '@aerie/daemon/http-kit/content-disposition';
import { HttpError, UNPARSABLE_BODY_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import {
  assertNotRevoked,
  authoriseSignedBackup,
  authoriseSignedFile,
} from '@aerie/daemon/http-kit/signed-file-token';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import { FILE_DOWNLOAD_PURPOSE, FILE_UPLOAD_PURPOSE } from '@aerie/shared/files/file-wire';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { DaemonAppConfig, DaemonAppOptions } from './app';
import { drainRefusedBody } from './refused-body';
import { MAX_UPLOAD_FILES, stageUploads } from './upload-staging';

export const NOT_MULTIPART_MESSAGE = 'The upload must be sent as multipart/form-data.';
/** Where used signed-URL ids are kept, in the daemon's data directory. */
export const USED_TOKENS_FILE = 'used-file-tokens.json';

/** Wings answers 404 for a directory; a link or a pipe is as little a file to download. */
const NOT_DOWNLOADABLE = new Set<FilesystemErrorCode>(['EISDIR', 'ENOTREGULAR', 'ESYMLINK']);

export interface SignedFileRoutesOptions {
  /** DAEMON_DATA_DIR: the used-token file, and `tmp/uploads` for files being received. */
  dataDirectory: string;
  /** DAEMON_UPLOAD_LIMIT_MB: the largest file an upload accepts. */
  uploadLimitMb: number;
  /**
   * The console websocket's denylist: a URL issued before the daemon started, or at or before the panel denied
   * its jti or its user, is refused like their socket tokens.
   */
  denylist: JwtDenylist;
  /** With it, `GET /download/backup?token=` serves the local backups (same token checks and one-time store). */
  backups?: BackupService;
}

/**
 * The panel-signed file URLs (wings.md §1.3, §6.8) as the daemon app's public hook:
 * `buildDaemonApp({ …, ...signedFileRoutes({ dataDirectory, uploadLimitMb, denylist }) })`.
 */
export function signedFileRoutes(options: SignedFileRoutesOptions): Pick<DaemonAppOptions, 'registerPublic'> {
  const usedTokens = new UsedTokenStore(path.join(options.dataDirectory, USED_TOKENS_FILE));
  return {
    registerPublic: async (app, manager, config) => {
      await app.register(async (scope) =>
        registerSignedFileRoutes(scope, manager, config, options, usedTokens),
      );
    },
  };
}

async function registerSignedFileRoutes(
  scope: FastifyInstance,
  manager: ServerManager,
  config: DaemonAppConfig,
  options: SignedFileRoutesOptions,
  usedTokens: UsedTokenStore,
): Promise<void> {
  const limitBytes = options.uploadLimitMb * 1024 * 1024;
  const checks = { nodeToken: config.token, manager, usedTokens, denylist: options.denylist };
  // A valid signed URL: its connection (a long upload or download) is never closed to make room.
  const proving = async <T>(access: Promise<T>, socket: Socket): Promise<T> => {
    const granted = await access;
    proveConnection(socket);
    return granted;
  };
  const authorise = (
    token: string | undefined,
    purpose: typeof FILE_DOWNLOAD_PURPOSE | typeof FILE_UPLOAD_PURPOSE,
    socket: Socket,
  ) => proving(authoriseSignedFile(token, { ...checks, purpose }), socket);

  if (options.backups) {
    await backupDownloadRoute(scope, {
      backups: options.backups,
      authorise: (token, socket) => proving(authoriseSignedBackup(token, checks), socket),
    });
  }

  // Parts are read in the handler, after the token: a refused upload never has its files parsed.
  await scope.register(multipart, {
    preservePath: true,
    throwFileSizeLimit: false,
    // One file past the cap reaches stageUploads, which refuses it with a clear text.
    limits: { fileSize: limitBytes, files: MAX_UPLOAD_FILES + 1, parts: 2 * MAX_UPLOAD_FILES + 50 },
  });

  /** `GET /download/file?token=`: the token's `file_path`, as an attachment. Anything but a regular file is 404. */
  scope.get<{ Querystring: { token?: string } }>('/download/file', async (request, reply) => {
    const { claims, server } = await authorise(
      request.query.token,
      FILE_DOWNLOAD_PURPOSE,
      request.raw.socket,
    );
    const files = await server.files();
    const { stream, size, entry } = await files.readFile(claims.file_path ?? '').catch((error: unknown) => {
      if (error instanceof FilesystemError && NOT_DOWNLOADABLE.has(error.code)) {
        throw new FilesystemError('ENOTFOUND');
      }
      throw error;
    });
    reply.header('content-type', 'application/octet-stream');
    reply.header('content-length', size);
    reply.header('content-disposition', attachmentDisposition(entry.name));
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(stream);
  });

  /**
   * `POST /upload/file?token=&directory=`: multipart field `files` (many), each at most the upload limit. All are
   * received first; then each is written into `directory` through the jailed filesystem (denylist and quota per
   * file, as Wings: a refusal stops there, the files before it stay written).
   */
  scope.post<{ Querystring: { token?: string; directory?: string } }>(
    '/upload/file',
    async (request, reply) => {
      const { claims, server } = await authorise(
        request.query.token,
        FILE_UPLOAD_PURPOSE,
        request.raw.socket,
      );
      if (!request.isMultipart()) throw new HttpError(400, NOT_MULTIPART_MESSAGE);
      const files = await server.files();
      // Staged bytes hold their place in the quota from the first one; each file's own write then takes over.
      const staging = await files.reserveSpace();
      const staged = await stageUploads(request.parts(), {
        directory: path.join(options.dataDirectory, 'tmp', 'uploads'),
        limitMb: options.uploadLimitMb,
        reservation: staging,
      }).catch((error: unknown) => {
        staging.release();
        drainRefusedBody(request.raw);
        if (error instanceof HttpError || error instanceof FilesystemError) throw error;
        if ((error as NodeJS.ErrnoException).errno !== undefined) throw error;
        // Busboy's complaints about a broken form (no boundary, a part cut short).
        throw new HttpError(400, UNPARSABLE_BODY_MESSAGE);
      });
      try {
        // Access taken away while the files were arriving (a deny, a suspension): nothing is written.
        assertNotRevoked(claims, server, options.denylist);
        const directory = (request.query.directory ?? '/').replace(/\/+$/, '');
        for (const file of staged.files) {
          staging.shrink(file.size);
          const data = createReadStream(file.path);
          try {
            await files.writeFile(`${directory}/${file.name}`, data, file.size);
          } finally {
            // A refusal before the first byte (denylist, quota) leaves the stream unread: its descriptor goes now.
            data.destroy();
          }
        }
      } finally {
        staging.release();
        await staged.cleanup();
      }
      return reply.status(200).send();
    },
  );
}
