import { isFilesystemError } from '@aerie/daemon/fs/filesystem-error';
import type { OpenFile } from '@aerie/daemon/fs/open-file';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import ssh2, { type InputAttributes } from 'ssh2';
import { SftpRefusal } from './sftp-status';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;

/** The permissions of wings.md §8 (`*` grants them all). */
export const SFTP_PERMISSION = {
  readContent: 'file.read-content',
  read: 'file.read',
  update: 'file.update',
  create: 'file.create',
  delete: 'file.delete',
} as const;

type Require = (permission: string) => void;

/** An opened file, and what the open is for: `create` made it, `write` may change it, undefined only reads. */
export interface OpenedFile {
  file: OpenFile;
  change: 'create' | 'write' | undefined;
}

/**
 * OPEN with SFTP's pflags: reading needs `file.read-content`; writing an existing file `file.update`, making a new
 * one `file.create`, and then only if nobody made it meanwhile (the permission decided is the one that applies).
 */
export async function openForRequest(
  files: ServerFilesystem,
  path: string,
  flags: number,
  require: Require,
): Promise<OpenedFile> {
  const read = (flags & OPEN_MODE.READ) !== 0;
  const write = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND)) !== 0;
  const create = (flags & OPEN_MODE.CREAT) !== 0;
  const truncate = (flags & OPEN_MODE.TRUNC) !== 0;
  const changes = write || create || truncate;
  if (read || !changes) require(SFTP_PERMISSION.readContent);
  let exists = true;
  if (changes) {
    exists = await files.lstatOf(path).then(
      () => true,
      (error: unknown) => {
        if (isFilesystemError(error, 'ENOTFOUND')) return false;
        throw error;
      },
    );
    if (!exists && !create) throw new SftpRefusal(STATUS_CODE.NO_SUCH_FILE, 'No such file or directory.');
    require(exists ? SFTP_PERMISSION.update : SFTP_PERMISSION.create);
  }
  const file = await files.sftp.openFile(path, {
    read: read || !changes,
    write: changes,
    create: create && !exists,
    truncate,
    exclusive: (flags & OPEN_MODE.EXCL) !== 0 || !exists,
    append: (flags & OPEN_MODE.APPEND) !== 0,
  });
  return { file, change: !changes ? undefined : exists ? 'write' : 'create' };
}

/**
 * SETSTAT by path (the caller checked `file.update`): a size through an opened file (growth held against the
 * quota), the 0777 mode bits never through a link, both times together; owner and group are ignored.
 */
export async function setStatOfPath(
  files: ServerFilesystem,
  path: string,
  attrs: InputAttributes,
): Promise<void> {
  if (attrs.size !== undefined) {
    const file = await files.sftp.openFile(path, {
      read: false,
      write: true,
      create: false,
      truncate: false,
      exclusive: false,
      append: false,
    });
    try {
      await file.setSize(attrs.size);
    } finally {
      await file.close();
    }
  }
  if (attrs.mode !== undefined) {
    await files.chmod('/', [{ file: path, mode: (Number(attrs.mode) & 0o777).toString(8) }]);
  }
  if (attrs.atime !== undefined && attrs.mtime !== undefined) {
    await files.sftp.setTimes(path, attrs.atime, attrs.mtime);
  }
}
