import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';

export interface ListedEntry {
  name: string;
  type: string;
  size: number;
  linkname?: string;
  data: Buffer;
}

/** Every entry of a tar.gz (bytes or a file), with its data: what a user opening the backup would find. */
export async function listTarGz(source: Buffer | string): Promise<ListedEntry[]> {
  const bytes = typeof source === 'string' ? await readFile(source) : source;
  const extract = tar.extract();
  const entries: ListedEntry[] = [];
  Readable.from([zlib.gunzipSync(bytes)]).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const { name, type, size, linkname } = entry.header;
    entries.push({
      name: name.replace(/\/$/, ''),
      type: type ?? 'file',
      size: size ?? 0,
      linkname: linkname ?? undefined,
      data: Buffer.concat(chunks),
    });
  }
  return entries;
}

/** A tar.gz built entry by entry, headers as given (to craft hostile archives). */
export async function buildTarGz(
  entries: {
    name: string;
    type?: 'file' | 'directory' | 'symlink' | 'link';
    data?: Buffer | string;
    linkname?: string;
    size?: number;
  }[],
): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of entries) {
    const data = entry.data === undefined ? undefined : Buffer.from(entry.data);
    const header = {
      name: entry.name,
      type: entry.type ?? 'file',
      linkname: entry.linkname,
      size: entry.size ?? data?.length ?? 0,
      mode: entry.type === 'directory' ? 0o755 : 0o644,
    };
    if (data === undefined) pack.entry(header);
    else pack.entry(header, data);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

export const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');
