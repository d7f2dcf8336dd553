import mime from 'mime';

/** How much of a file without a known extension is read to tell text from binary. */
export const SNIFF_BYTES = 512;

/** Archive extensions mime-db does not know; the panel's isArchiveType keys on these words. */
const EXTRA: Record<string, string> = {
  tgz: 'application/gzip',
  zst: 'application/zstd',
  tzst: 'application/zstd',
  tbz: 'application/x-bzip2',
  tbz2: 'application/x-bzip2',
  txz: 'application/x-xz',
};

/** By extension first (cheap, and what the editor's language choice keys on); `undefined` when unknown. */
export function mimeFromName(name: string): string | undefined {
  if (!name.includes('.') || name.lastIndexOf('.') === 0) return undefined;
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return EXTRA[extension] ?? mime.getType(name) ?? undefined;
}

/**
 * For files without a known extension (server.properties-like names, start scripts, eula): text if the head has
 * no NUL byte and decodes as UTF-8, so the panel offers the editor; binary otherwise.
 */
export function mimeFromContent(head: Uint8Array): string {
  if (head.includes(0)) return 'application/octet-stream';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}
