import { hasPermission } from '@aerie/daemon/auth/permissions';
import { displayPath, pathComponents } from '@aerie/daemon/fs/jail-path';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import ssh2, { type Attributes, type InputAttributes, type SFTPWrapper } from 'ssh2';
import { RequestBudget } from './request-budget';
import type { SftpActivity } from './sftp-activity';
import { attrsOf, longnameOf } from './sftp-attrs';
import { closeHandle, HandleTable, type SftpHandle } from './sftp-handles';
import type { SftpLimits } from './sftp-limits';
import type { SftpAuthority } from './sftp-login';
import { openForRequest, SFTP_PERMISSION as PERMISSION, setStatOfPath } from './sftp-open';
import { invalidHandle, permissionDenied, SftpRefusal, serverUnavailable, sftpStatusOf } from './sftp-status';

const { STATUS_CODE } = ssh2.utils.sftp;

/** Names per READDIR answer (OpenSSH's sftp-server sends 100). */
const NAMES_PER_ANSWER = 100;

/** A NAME entry without attributes (REALPATH, READLINK): ssh2 sends none when none are given. */
const nameOnly = (name: string) => ({ filename: name, longname: name, attrs: {} as Attributes });

/** What a session needs from the server it serves. */
export interface SftpServerAccess {
  /** The server's filesystem while it may be worked on; undefined once suspended, reinstalling or deleted. */
  files(): Promise<ServerFilesystem | undefined>;
}

/** What the session asks of the connection it runs in. */
export interface SftpFlow {
  /** Stop reading the client's requests (too many in flight) / read again. */
  pause(): void;
  resume(): void;
  /** Answers the connection holds unsent (its socket's queue and the channel's): past the limit it is closed. */
  unsentAnswers(): number;
  /** Something was asked or finished: the idle clock starts again. */
  touch(): void;
  /** The client misbehaved beyond repair: the connection goes. */
  abort(reason: string): void;
  warn(message: string): void;
}

/**
 * One SFTP subsystem channel: every request goes through the server's jailed filesystem with the permission
 * wings.md §8 names for it, against the authority the panel granted at login (revocation closes the whole
 * connection, see session-registry.ts). Reads and writes move one request's bytes at a time (no whole file is
 * ever held), open handles are bounded, and requests in flight beyond the limit stop the connection from being read.
 */
export class SftpSession {
  readonly #sftp: SFTPWrapper;
  readonly #server: SftpServerAccess;
  readonly #authority: SftpAuthority;
  readonly #limits: SftpLimits;
  readonly #flow: SftpFlow;
  readonly #handles: HandleTable;
  readonly #budget: RequestBudget;
  readonly #activity: SftpActivity | undefined;
  #ended = false;
  #clientDone = false;

  constructor(options: {
    sftp: SFTPWrapper;
    server: SftpServerAccess;
    authority: SftpAuthority;
    limits: SftpLimits;
    flow: SftpFlow;
    /** Where this connection's operations are reported for the activity log (none: not reported). */
    activity?: SftpActivity | undefined;
  }) {
    this.#sftp = options.sftp;
    this.#server = options.server;
    this.#authority = options.authority;
    this.#limits = options.limits;
    this.#flow = options.flow;
    this.#activity = options.activity;
    this.#handles = new HandleTable(options.limits.maxOpenHandles);
    this.#budget = new RequestBudget(options.limits, options.flow);
    this.#listen();
  }

  get inFlight(): number {
    return this.#budget.inFlight;
  }

  /** The channel or the connection is gone: every open file and folder is closed (quota settled). */
  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#budget.release();
    await this.#handles.closeAll((handle) => this.#reportClosed(handle));
  }

  async #finish(): Promise<void> {
    await this.end();
    this.#sftp.end();
  }

  #listen(): void {
    const sftp = this.#sftp;
    sftp.on('error', (error: Error) => this.#flow.abort(`SFTP protocol error: ${error.message}`));
    sftp.on('close', () => void this.end());
    // The client sent EOF (OpenSSH's sftp does once its batch is done): finish what is in flight, then close the
    // channel, as OpenSSH's sftp-server exits, or the client waits for the close forever.
    sftp.on('end', () => {
      this.#clientDone = true;
      if (this.inFlight === 0) void this.#finish();
    });

    sftp.on('REALPATH', (id: number, path: string) =>
      this.#serve(id, async () => {
        const resolved = displayPath(pathComponents(path));
        sftp.name(id, [nameOnly(resolved)]);
      }),
    );
    sftp.on('STAT', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.read);
        sftp.attrs(id, attrsOf(await files.sftp.statOf(path)));
      }),
    );
    sftp.on('LSTAT', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.read);
        sftp.attrs(id, attrsOf(await files.lstatOf(path)));
      }),
    );
    sftp.on('FSTAT', (id: number, handle: Buffer) =>
      this.#serve(id, async (files) => {
        const open = this.#handle(handle);
        const stats = open.kind === 'file' ? await open.file.stat() : await files.sftp.statOf(open.path);
        sftp.attrs(id, attrsOf(stats));
      }),
    );
    sftp.on('OPENDIR', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.read);
        this.#assertHandleRoom();
        const reader = await files.sftp.readDirectory(path);
        await this.#answerHandle(id, { kind: 'directory', path, reader });
      }),
    );
    sftp.on('READDIR', (id: number, handle: Buffer) =>
      this.#serve(id, async () => {
        const open = this.#handle(handle);
        if (open.kind !== 'directory') throw invalidHandle();
        const entries = await open.reader.next(NAMES_PER_ANSWER);
        if (entries === null) return sftp.status(id, STATUS_CODE.EOF);
        const now = Date.now();
        sftp.name(
          id,
          entries.map(({ name, stats }) => ({
            filename: name,
            longname: longnameOf(name, stats, now),
            attrs: attrsOf(stats),
          })),
        );
      }),
    );
    sftp.on('OPEN', (id: number, path: string, flags: number) =>
      this.#serve(id, async (files) => {
        this.#assertHandleRoom();
        const { file, change } = await openForRequest(files, path, flags, (permission) =>
          this.#require(permission),
        );
        await this.#answerHandle(id, { kind: 'file', path, file, change });
      }),
    );
    sftp.on('READ', (id: number, handle: Buffer, offset: number, length: number) =>
      this.#serve(id, async () => {
        const open = this.#handle(handle);
        if (open.kind !== 'file') throw invalidHandle();
        const data = await open.file.read(offset, length);
        if (data.length === 0) return sftp.status(id, STATUS_CODE.EOF);
        sftp.data(id, data);
      }),
    );
    sftp.on('WRITE', (id: number, handle: Buffer, offset: number, data: Buffer) =>
      this.#serve(
        id,
        async () => {
          const open = this.#handle(handle);
          if (open.kind !== 'file') throw invalidHandle();
          await open.file.write(offset, data);
          sftp.status(id, STATUS_CODE.OK);
        },
        data.length,
      ),
    );
    sftp.on('CLOSE', (id: number, handle: Buffer) =>
      this.#serve(id, async () => {
        const open = this.#handles.remove(handle);
        if (!open) throw invalidHandle();
        await closeHandle(open);
        this.#reportClosed(open);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('FSETSTAT', (id: number, handle: Buffer, attrs: InputAttributes) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.update);
        const open = this.#handle(handle);
        if (open.kind === 'directory') {
          await setStatOfPath(files, open.path, attrs);
          return sftp.status(id, STATUS_CODE.OK);
        }
        if (attrs.size !== undefined) await open.file.setSize(attrs.size);
        if (attrs.mode !== undefined) await open.file.chmod(Number(attrs.mode));
        if (attrs.atime !== undefined && attrs.mtime !== undefined) {
          await open.file.setTimes(attrs.atime, attrs.mtime);
        }
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('SETSTAT', (id: number, path: string, attrs: InputAttributes) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.update);
        await setStatOfPath(files, path, attrs);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('MKDIR', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.create);
        await files.createDirectory(path, '/');
        this.#activity?.createdDirectory(path);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('RENAME', (id: number, from: string, to: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.update);
        await files.rename('/', [{ from, to }]);
        this.#activity?.renamed(from, to);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('REMOVE', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.delete);
        await files.sftp.removeFile(path);
        this.#activity?.deleted(path);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('RMDIR', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.delete);
        await files.sftp.removeDirectory(path);
        this.#activity?.deleted(path);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    // ssh2 hands the link's own path first and what it points to second, whichever order the client used.
    sftp.on('SYMLINK', (id: number, linkPath: string, targetPath: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.create);
        await files.sftp.createSymlink(linkPath, targetPath);
        sftp.status(id, STATUS_CODE.OK);
      }),
    );
    sftp.on('READLINK', (id: number, path: string) =>
      this.#serve(id, async (files) => {
        this.#require(PERMISSION.read);
        const target = await files.sftp.readLink(path);
        sftp.name(id, [nameOnly(target)]);
      }),
    );
    // Extensions (posix-rename, statvfs, hardlink…) are not offered; ssh2 answers them OP_UNSUPPORTED.
  }

  /** Runs one request: the server must still be usable, failures become statuses, the budget bounds how many. */
  #serve(id: number, work: (files: ServerFilesystem) => Promise<unknown>, writeBytes = 0): void {
    if (this.#ended) return;
    this.#flow.touch();
    this.#budget.take(writeBytes);
    this.#server
      .files()
      .then((files) => {
        if (!files) throw serverUnavailable();
        return work(files);
      })
      .catch((error: unknown) => {
        if (this.#ended) return;
        const { code, message } = sftpStatusOf(error, (unexpected) =>
          this.#flow.warn(
            `SFTP request of ${this.#authority.username} failed: ${unexpected instanceof Error ? unexpected.message : String(unexpected)}`,
          ),
        );
        this.#sftp.status(id, code, message);
      })
      .finally(() => {
        this.#budget.give(writeBytes);
        this.#flow.touch();
        if (this.#flow.unsentAnswers() > this.#limits.maxUnsentAnswers) {
          this.#flow.abort('the client stopped reading its answers');
        }
        if (this.#clientDone && this.inFlight === 0) void this.#finish();
      });
  }

  /** A file opened to make or change it is closed: that is when the write happened, for the activity log. */
  #reportClosed(handle: SftpHandle): void {
    if (handle.kind === 'file' && handle.change) {
      this.#activity?.closedAfterWrite(handle.path, handle.change === 'create');
    }
  }

  #require(permission: string): void {
    if (!hasPermission(this.#authority.permissions, permission)) throw permissionDenied();
  }

  #handle(id: Buffer): SftpHandle {
    const handle = this.#handles.get(id);
    if (!handle) throw invalidHandle();
    return handle;
  }

  #assertHandleRoom(): void {
    if (this.#handles.full) {
      throw new SftpRefusal(STATUS_CODE.FAILURE, 'Too many files are open on this connection.');
    }
  }

  /** Hands out an opened file or folder; one opened after the end, or past the bound meanwhile, is closed. */
  async #answerHandle(id: number, handle: SftpHandle): Promise<void> {
    if (this.#ended || this.#handles.full) {
      await closeHandle(handle).catch(() => undefined);
      if (!this.#ended) this.#assertHandleRoom();
      return;
    }
    this.#sftp.handle(id, this.#handles.add(handle));
  }
}
