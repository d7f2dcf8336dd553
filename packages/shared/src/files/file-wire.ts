/**
 * Wire shapes of the files API, on both hops: the daemon's (Wings' field names) and the client API's
 * (Pterodactyl's `file_object`). snake_case as on the wire.
 */

/** One entry of the daemon's `GET /api/servers/{uuid}/files/list-directory`, and the answer of its compress. */
export interface DaemonFileStat {
  name: string;
  /** ctime, ISO 8601. */
  created: string;
  /** mtime, ISO 8601. */
  modified: string;
  /** Ten characters, e.g. `-rw-r--r--`. */
  mode: string;
  /** Permission bits in octal, e.g. `644`. */
  mode_bits: string;
  size: number;
  directory: boolean;
  file: boolean;
  symlink: boolean;
  mime: string;
}

/** `file_object` attributes of the client API (GET …/files/list, POST …/files/compress). */
export interface FileObjectAttributes {
  name: string;
  mode: string;
  mode_bits: string;
  size: number;
  is_file: boolean;
  is_symlink: boolean;
  mimetype: string;
  created_at: string;
  modified_at: string;
}

export interface FileObject {
  object: 'file_object';
  attributes: FileObjectAttributes;
}

export interface FileListResponse {
  object: 'list';
  data: FileObject[];
}

/** GET …/files/download and GET …/files/upload. */
export interface SignedUrlResponse {
  object: 'signed_url';
  attributes: { url: string };
}

/** Client API bodies (pterodactyl-client-api.md §7.2 "Files"); the daemon takes the same shapes. */
export interface RenameFilesBody {
  root: string;
  files: { from: string; to: string }[];
}
export interface DeleteFilesBody {
  root: string;
  files: string[];
}
export interface CompressFilesBody {
  root?: string;
  files: string[];
}
/** The daemon's compress body: the client API's, plus the archive format (Wings always makes tar.gz). */
export interface DaemonCompressFilesBody extends CompressFilesBody {
  extension?: 'tar.gz' | 'zip';
}
export interface DecompressFileBody {
  root?: string;
  file: string;
}
export interface ChmodFilesBody {
  root: string;
  files: { file: string; mode: string }[];
}
export interface CopyFileBody {
  location: string;
}
export interface CreateFolderBody {
  root?: string;
  name: string;
}
/** The daemon's create-directory body (Wings names the parent `path`). */
export interface DaemonCreateDirectoryBody {
  name: string;
  path: string;
}

/** JWT purposes of the signed file URLs: a token for one never opens the other, nor the websocket. */
export const FILE_DOWNLOAD_PURPOSE = 'file_download';
export const FILE_UPLOAD_PURPOSE = 'file_upload';

/** Numbers of the files feature (server-pages.md §9, pterodactyl-client-api.md §7.2, wings.md §1.3, §6.8). */
export const fileLimits = {
  /** The web listing shows at most this many entries. */
  listCap: 250,
  /** The bulk delete dialog names this many, then "+ N other(s)". */
  bulkDeleteNames: 15,
  /** The editor refuses larger files (the panel's FileSizeTooLargeException). */
  editorMaxBytes: 4 * 1024 * 1024,
  /** Largest body `POST …/files/write` takes (the daemon's per-file upload limit): 413 above it. */
  writeMaxBytes: 100 * 1024 * 1024,
  /** The SPA's request time-outs for archive work. */
  compressTimeoutMs: 60_000,
  decompressTimeoutMs: 300_000,
  /** Signed download and upload URLs live 15 minutes. */
  signedUrlTtlSeconds: 15 * 60,
  /** Default per-file upload limit of the daemon, in MiB (Wings' api.upload_limit). */
  uploadLimitMb: 100,
  /** Modified times within this window read as relative text. */
  relativeTimeWindowMs: 48 * 60 * 60 * 1000,
  /** Mode of a new folder. */
  newFolderMode: 0o755,
} as const;

/** Error details of the files API that the panel itself raises (daemon errors carry the daemon's text). */
export const fileMessages = {
  /** 400 FileSizeTooLargeException of GET …/files/contents. */
  tooLargeToEdit: 'The file you are attempting to open is too large to view in the file editor.',
  /** 413 PostTooLargeException of POST …/files/write. */
  writeTooLarge: 'The file contents may not be larger than 100 MiB.',
} as const;

/** The client API's `POST …/files/pull` (Pterodactyl's PullFileRequest). */
export interface PullFileBody {
  url: string;
  directory?: string | null;
  filename?: string | null;
  use_header?: boolean;
  foreground?: boolean;
}

/** Wings' `POST /api/servers/{uuid}/files/pull` body (`directory` is its deprecated name for `root`). */
export interface DaemonPullFileBody {
  url: string;
  root: string;
  file_name?: string;
  use_header?: boolean;
  foreground?: boolean;
}

/** Wings' answer to a background pull (202). */
export interface DaemonPullStarted {
  identifier: string;
}

/** Wings' `GET …/files/pull`: the downloads under way, progress from 0 to 1. */
export interface DaemonPullList {
  downloads: { identifier: string; progress: number }[];
}
