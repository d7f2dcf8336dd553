import { FilesystemError } from '@aerie/daemon/fs/filesystem-error';
import ssh2 from 'ssh2';

const { STATUS_CODE } = ssh2.utils.sftp;

/** An SFTP request refused before the filesystem was asked (a missing permission, a handle that is not one). */
export class SftpRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'SftpRefusal';
  }
}

export const permissionDenied = () => new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, 'Permission denied.');
export const invalidHandle = () => new SftpRefusal(STATUS_CODE.FAILURE, 'That handle is not open.');
export const serverUnavailable = () =>
  new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, 'This server is suspended or no longer on this node.');

/** SFTP v3 has no quota status; clients show the text (Wings answers 15, which v3 clients call unknown). */
export const QUOTA_MESSAGE = "Quota exceeded: the server's disk space limit is reached.";

/**
 * The status a failed request answers with. A path outside the root looks like a missing one (nothing about the
 * host leaks), a denylisted name is a permission refusal, the rest are failures carrying the filesystem's text.
 * Anything that is not ours answers a plain failure; `unexpected` is told so it can be logged.
 */
export function sftpStatusOf(
  error: unknown,
  unexpected: (error: unknown) => void,
): { code: number; message: string } {
  if (error instanceof SftpRefusal) return { code: error.code, message: error.message };
  if (error instanceof FilesystemError) {
    switch (error.code) {
      case 'ENOTFOUND':
      case 'EOUTSIDE':
        return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file or directory.' };
      case 'EDENIED':
        return { code: STATUS_CODE.PERMISSION_DENIED, message: error.message };
      case 'EQUOTA':
        return { code: STATUS_CODE.FAILURE, message: QUOTA_MESSAGE };
      default:
        return { code: STATUS_CODE.FAILURE, message: error.message };
    }
  }
  unexpected(error);
  return { code: STATUS_CODE.FAILURE, message: 'The operation failed.' };
}
