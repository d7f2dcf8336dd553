import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable, type Transform, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { FilesystemError } from './filesystem-error';
import { readRange } from './read-exactly';

export type ArchiveKind = 'zip' | 'tar' | 'gzip' | 'bzip2' | 'xz' | 'zstd';

export interface ArchiveEntryHeader {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
  /** Uncompressed size as the archive declares it. */
  size: number;
  mode: number | undefined;
  mtime: Date | undefined;
  linkname: string | undefined;
}

export interface ArchiveEntry {
  header: ArchiveEntryHeader;
  /** The entry's data; must be consumed or resumed before the next entry is asked for. */
  stream: Readable | undefined;
}

/** Which archive this is, by its first bytes (a renamed file is still recognised, a lying extension is ignored). */
export function detectArchive(head: Buffer): ArchiveKind | undefined {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return 'zip';
  if (starts(0x1f, 0x8b)) return 'gzip';
  if (starts(0x42, 0x5a, 0x68)) return 'bzip2';
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return 'xz';
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return 'zstd';
  if (head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  return undefined;
}

/**
 * bzip2, xz and zstd have no well-kept pure-JS decoder that installs without a native build, so the host's own
 * tools decode them when installed (Debian ships all three); without them those formats are refused.
 */
const EXTERNAL_DECODERS: Partial<Record<ArchiveKind, string>> = { bzip2: 'bzip2', xz: 'xz', zstd: 'zstd' };

async function findExecutable(name: string): Promise<string | undefined> {
  for (const directory of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    if (
      await fs.access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    ) {
      return candidate;
    }
  }
  return undefined;
}

export async function isSupported(kind: ArchiveKind): Promise<boolean> {
  const decoder = EXTERNAL_DECODERS[kind];
  return decoder === undefined || (await findExecutable(decoder)) !== undefined;
}

/**
 * Feeds the tar stream inside `raw` (a file or a stream as it arrives), decompressed, into `extract`; `limit` bounds the decompressed bytes so a
 * bomb stops there. Errors anywhere in the chain reach `extract`, and so the reader.
 */
async function feedTar(
  raw: Readable,
  kind: ArchiveKind,
  limit: Transform,
  extract: tar.Extract,
): Promise<void> {
  const done = (error: Error | null) => {
    if (error) extract.destroy(error);
  };
  // tar-stream is built on streamx: Node's pipeline runs up to our limit, which then pipes into it.
  limit.pipe(extract as unknown as Writable);
  if (kind === 'tar') {
    pipeline(raw, limit, done);
    return;
  }
  if (kind === 'gzip') {
    pipeline(raw, zlib.createGunzip({ chunkSize: 256 * 1024 }), limit, done);
    return;
  }
  const decoder = EXTERNAL_DECODERS[kind];
  const executable = decoder === undefined ? undefined : await findExecutable(decoder);
  if (executable === undefined) throw new FilesystemError('EUNSUPPORTED');
  const child = spawn(executable, ['-dc'], { stdio: ['pipe', 'pipe', 'ignore'] });
  pipeline(raw, child.stdin, () => undefined);
  pipeline(child.stdout, limit, (error) => {
    child.kill('SIGKILL');
    done(error);
  });
}

function entryType(type: tar.Header['type']): ArchiveEntryHeader['type'] {
  if (type === 'file' || type === 'contiguous-file') return 'file';
  if (type === 'directory' || type === 'symlink') return type;
  if (type === 'link') return 'hardlink';
  return 'other';
}

/** Iterates a tar (optionally compressed) archive's entries. */
export function tarEntries(
  handle: FileHandle,
  kind: ArchiveKind,
  limit: Transform,
): AsyncGenerator<ArchiveEntry> {
  return tarStreamEntries(readRange(handle, 0), kind, limit);
}

/** Iterates the entries of a tar (optionally compressed) archive read from a stream, once, as it arrives. */
export async function* tarStreamEntries(
  raw: Readable,
  kind: ArchiveKind,
  limit: Transform,
): AsyncGenerator<ArchiveEntry> {
  const extract = tar.extract();
  await feedTar(raw, kind, limit, extract);
  try {
    for await (const entry of extract) {
      const { header } = entry;
      yield {
        header: {
          name: header.name,
          type: entryType(header.type),
          size: header.size ?? 0,
          mode: header.mode,
          mtime: header.mtime,
          linkname: header.linkname ?? undefined,
        },
        stream: Readable.from(entry),
      };
      entry.resume();
    }
  } catch (error) {
    if (error instanceof FilesystemError) throw error;
    throw new FilesystemError('EARCHIVE', 'The archive is damaged or is not a tar archive.');
  } finally {
    // Stopping early (a refusal) tears the whole chain down: file reader, decoder process, limit, parser.
    limit.destroy();
    extract.destroy();
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * yauzl reads through our own descriptor: its fromFd() would close the descriptor we still own (and the number
 * could be reused by another open meanwhile).
 */
class HandleReader extends yauzl.RandomAccessReader {
  constructor(private readonly handle: FileHandle) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return readRange(this.handle, start, end);
  }
}

async function openZip(handle: FileHandle): Promise<yauzl.ZipFile> {
  const size = (await handle.stat()).size;
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      new HandleReader(handle),
      size,
      {
        lazyEntries: true,
        autoClose: false,
        validateEntrySizes: true,
        decodeStrings: true,
        strictFileNames: false,
      },
      (error, zipfile) => (error ? reject(error) : resolve(zipfile)),
    );
  });
}

function zipError(error: unknown): FilesystemError {
  if (error instanceof FilesystemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // yauzl's own name checks: absolute paths and `..` are refused before any byte is written.
  if (/absolute path|invalid relative path/i.test(message)) {
    return new FilesystemError('EARCHIVE', `The archive contains an unsafe entry name (${message}).`);
  }
  return new FilesystemError('EARCHIVE', 'The archive is damaged or is not a zip archive.');
}

/** The number of entries the zip's central directory announces (known before reading any of them). */
export async function zipEntryCount(handle: FileHandle): Promise<number> {
  const zipfile = await openZip(handle).catch((error: unknown) => {
    throw zipError(error);
  });
  zipfile.close();
  return zipfile.entryCount;
}

/** Iterates a zip's entries; symlink entries carry their target (read from the entry, capped at 4 KiB). */
export async function* zipEntries(handle: FileHandle, withData: boolean): AsyncGenerator<ArchiveEntry> {
  const zipfile = await openZip(handle).catch((error: unknown) => {
    throw zipError(error);
  });
  const nextEntry = () =>
    new Promise<yauzl.Entry | undefined>((resolve, reject) => {
      const cleanup = () => {
        zipfile.off('entry', onEntry);
        zipfile.off('end', onEnd);
        zipfile.off('error', onError);
      };
      const onEntry = (entry: yauzl.Entry) => {
        cleanup();
        resolve(entry);
      };
      const onEnd = () => {
        cleanup();
        resolve(undefined);
      };
      const onError = (error: unknown) => {
        cleanup();
        reject(zipError(error));
      };
      zipfile.on('entry', onEntry);
      zipfile.on('end', onEnd);
      zipfile.on('error', onError);
      zipfile.readEntry();
    });
  const openStream = (entry: yauzl.Entry) =>
    new Promise<Readable>((resolve, reject) =>
      zipfile.openReadStream(entry, (error, stream) => {
        if (error) return reject(zipError(error));
        // yauzl may still report (e.g. "too many bytes") after our writer stopped reading at the declared size.
        stream.on('error', () => undefined);
        resolve(stream);
      }),
    );
  try {
    for (let entry = await nextEntry(); entry !== undefined; entry = await nextEntry()) {
      const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
      const isLink = (unixMode & S_IFMT) === S_IFLNK;
      const isDirectory = entry.fileName.endsWith('/');
      let linkname: string | undefined;
      if (isLink) {
        if (entry.uncompressedSize > 4096)
          throw new FilesystemError('EARCHIVE', 'The archive contains an invalid link.');
        const chunks: Buffer[] = [];
        for await (const chunk of await openStream(entry)) chunks.push(chunk as Buffer);
        linkname = Buffer.concat(chunks).toString('utf8');
      }
      const type = isLink ? 'symlink' : isDirectory ? 'directory' : 'file';
      yield {
        header: {
          name: entry.fileName,
          type,
          size: type === 'file' ? entry.uncompressedSize : 0,
          mode: unixMode === 0 ? undefined : unixMode & 0o7777,
          mtime: entry.getLastModDate(),
          linkname,
        },
        stream: withData && type === 'file' ? await openStream(entry) : undefined,
      };
    }
  } finally {
    zipfile.close();
  }
}
