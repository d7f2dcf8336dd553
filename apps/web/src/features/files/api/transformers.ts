import type { FileObjectAttributes } from '@aerie/shared/files/file-wire';

/** One entry of a directory listing (server-pages §3 "File entry"), camelCased. */
export interface FileEntry {
  /** Unique within a listing: a file and a directory may share a name. */
  key: string;
  name: string;
  /** Ten characters, e.g. `-rw-r--r--`. */
  mode: string;
  /** Octal permission bits, e.g. `644`. */
  modeBits: string;
  size: number;
  isFile: boolean;
  isSymlink: boolean;
  mimetype: string;
  createdAt: Date;
  modifiedAt: Date;
}

const archiveMimetypes = [
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/x-tar',
  'application/x-br',
  'application/x-bzip2',
  'application/gzip',
  'application/x-gzip',
  'application/x-lzip',
  'application/x-sz',
  'application/x-xz',
  'application/zstd',
  'application/zip',
];

/** The only place the file wire becomes the model. */
export function toFileEntry(attributes: FileObjectAttributes): FileEntry {
  return {
    key: `${attributes.is_file ? 'file' : 'dir'}_${attributes.name}`,
    name: attributes.name,
    mode: attributes.mode,
    modeBits: attributes.mode_bits,
    size: attributes.size,
    isFile: attributes.is_file,
    isSymlink: attributes.is_symlink,
    mimetype: attributes.mimetype,
    createdAt: new Date(attributes.created_at),
    modifiedAt: new Date(attributes.modified_at),
  };
}

/** The mimetype without its parameters (`text/plain; charset=utf-8` → `text/plain`). */
const baseMimetype = (file: FileEntry): string => file.mimetype.split(';')[0]?.trim() ?? '';

/** rar, tar, br, bzip2, gzip, lzip, sz, xz, zstd and zip files can be unarchived. */
export const isArchiveType = (file: FileEntry): boolean =>
  file.isFile && archiveMimetypes.includes(baseMimetype(file));

/** Text the editor can open: a file, not an archive, and no binary mimetype. */
export function isEditable(file: FileEntry): boolean {
  if (!file.isFile || isArchiveType(file)) return false;
  const mimetype = baseMimetype(file);
  return !(
    ['application/jar', 'application/java-archive', 'application/octet-stream', 'inode/directory'].includes(
      mimetype,
    ) ||
    // SVG is text; every other image is not.
    (mimetype.startsWith('image/') && mimetype !== 'image/svg+xml')
  );
}

/** Directories first, then files, each by name. */
export const sortFiles = (files: FileEntry[]): FileEntry[] =>
  [...files].sort((a, b) => (a.isFile === b.isFile ? a.name.localeCompare(b.name) : a.isFile ? 1 : -1));
