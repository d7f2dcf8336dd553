import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import type {
  ChmodFilesBody,
  CopyFileBody,
  DaemonCompressFilesBody,
  DaemonCreateDirectoryBody,
  DecompressFileBody,
  DeleteFilesBody,
  RenameFilesBody,
} from '@aerie/shared/files/file-wire';
import { z } from 'zod';

/** Wings' texts where it has one (router_server_files.go), plain sentences where it only binds the JSON. */
export const FILE_BODY_MESSAGES = {
  rename: 'No files to move or rename were provided.',
  copy: 'The location of the file to copy must be provided.',
  createDirectory: 'The name of the directory to create must be provided.',
  delete: 'No files were specified for deletion.',
  compress: 'No files were selected to be compressed.',
  compressExtension: 'The archive extension must be "tar.gz" or "zip".',
  decompress: 'The archive to decompress must be provided.',
  chmod: 'No files to chmod were provided.',
} as const;

const name = z.string().min(1);
/** A missing root is the server root, as Wings' zero value `""` resolves to it. */
const root = z.string().default('/');

const schemas = {
  rename: z.object({ root, files: z.array(z.object({ from: name, to: name })).min(1) }),
  copy: z.object({ location: name }),
  createDirectory: z.object({ name, path: root }),
  delete: z.object({ root, files: z.array(name).min(1) }),
  compress: z.object({
    root,
    files: z.array(name).min(1),
    extension: z.string().optional(),
  }),
  decompress: z.object({ root, file: name }),
  chmod: z.object({
    root,
    files: z.array(z.object({ file: name, mode: z.union([z.string(), z.number()]) })).min(1),
  }),
} as const;

/** What each route reads once its body is valid (`root` defaulted). */
export interface FileBodies {
  rename: Required<RenameFilesBody>;
  copy: CopyFileBody;
  createDirectory: DaemonCreateDirectoryBody;
  delete: Required<DeleteFilesBody>;
  compress: Required<Omit<DaemonCompressFilesBody, 'extension'>> & Pick<DaemonCompressFilesBody, 'extension'>;
  decompress: Required<DecompressFileBody>;
  chmod: ChmodFilesBody & { files: { file: string; mode: string | number }[] };
}

/** The body of a files route, or 422 with the route's text when it is missing, empty or of the wrong shape. */
export function fileBody<K extends keyof typeof schemas>(kind: K, body: unknown): FileBodies[K] {
  const parsed = schemas[kind].safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(422, FILE_BODY_MESSAGES[kind]);
  if (kind === 'compress') {
    const extension = (parsed.data as { extension?: string }).extension;
    if (extension !== undefined && extension !== 'tar.gz' && extension !== 'zip') {
      throw new HttpError(422, FILE_BODY_MESSAGES.compressExtension);
    }
  }
  return parsed.data as FileBodies[K];
}
