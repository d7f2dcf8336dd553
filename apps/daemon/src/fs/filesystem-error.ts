/**
 * Every refusal of the jailed filesystem is a FilesystemError with a stable code. The message is written for the
 * person in the file manager; `status` is what the daemon's HTTP layer answers (Wings' mapping: a path outside the
 * root looks exactly like a missing one, so nothing about the host leaks).
 */
export type FilesystemErrorCode =
  | 'ENOTFOUND'
  | 'EOUTSIDE'
  | 'EISDIR'
  | 'ENOTDIR'
  | 'EEXISTS'
  | 'EDENIED'
  | 'EQUOTA'
  | 'ENOSPACE'
  | 'EARCHIVE'
  | 'EUNSUPPORTED'
  | 'ETOOMANY'
  | 'ETOOBIG'
  | 'ESYMLINK'
  | 'ENOTREGULAR'
  | 'EINVALID';

/** Wings' texts where the reference has them (pterodactyl-client-api.md, Files), plain sentences elsewhere. */
const MESSAGES: Record<FilesystemErrorCode, string> = {
  ENOTFOUND: 'The requested resources was not found on the system.',
  EOUTSIDE: 'The requested resources was not found on the system.',
  EISDIR: 'Cannot perform that action: the path is a directory.',
  ENOTDIR: 'Cannot perform that action: the path is not a directory.',
  EEXISTS: 'A file or folder with that name already exists.',
  EDENIED: 'This file cannot be modified: present in egg denylist.',
  EQUOTA: 'There is not enough disk space available to perform that action.',
  ENOSPACE: "The node's disk is full: nothing was saved. Free some space on the node and try again.",
  EARCHIVE: 'The archive contains an entry that cannot be safely extracted.',
  EUNSUPPORTED: 'The archive provided is in a format Wings does not understand.',
  ETOOMANY: 'The archive contains too many entries to be extracted.',
  ETOOBIG: 'The archive would expand to more data than is allowed.',
  ESYMLINK: 'Cannot perform that action on a symbolic link.',
  ENOTREGULAR: 'Cannot perform that action: the path is not a regular file.',
  EINVALID: 'The request is not valid.',
};

const STATUS: Partial<Record<FilesystemErrorCode, number>> = {
  ENOTFOUND: 404,
  EOUTSIDE: 404,
  EDENIED: 403,
  // Insufficient Storage: the node's own disk, not the server's allowance (EQUOTA), so not the user's to fix.
  ENOSPACE: 507,
};

export class FilesystemError extends Error {
  readonly code: FilesystemErrorCode;
  /** HTTP status the daemon answers with. */
  readonly status: number;

  constructor(code: FilesystemErrorCode, message?: string) {
    super(message ?? MESSAGES[code]);
    this.name = 'FilesystemError';
    this.code = code;
    this.status = STATUS[code] ?? 400;
  }
}

export function isFilesystemError(error: unknown, code?: FilesystemErrorCode): error is FilesystemError {
  return error instanceof FilesystemError && (code === undefined || error.code === code);
}

/** The errno of a Node system error, if it is one. */
export function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** True for the kernel's "no space left on device" (or the host's disk quota for the daemon's user). */
export function isDiskFull(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** Turns the kernel's answer about a path into our refusal; anything unexpected is re-thrown untouched. */
export function fromSystemError(error: unknown): never {
  if (error instanceof FilesystemError) throw error;
  switch (errnoOf(error)) {
    case 'ENOENT':
      throw new FilesystemError('ENOTFOUND');
    case 'EISDIR':
      throw new FilesystemError('EISDIR');
    case 'ENOTDIR':
      throw new FilesystemError('ENOTDIR');
    case 'ELOOP':
      throw new FilesystemError('ESYMLINK');
    case 'EEXIST':
    case 'ENOTEMPTY':
      throw new FilesystemError('EEXISTS');
    case 'ENAMETOOLONG':
      throw new FilesystemError('EINVALID', 'That file name is too long.');
    case 'ENOSPC':
    case 'EDQUOT':
      throw new FilesystemError('ENOSPACE');
    default:
      throw error;
  }
}
