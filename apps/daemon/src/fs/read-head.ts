import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import type { DirectoryHandle } from './jail';
import { mimeFromContent, SNIFF_BYTES } from './mime';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
// O_NOFOLLOW: the name may have been swapped for a link since it was listed; O_NONBLOCK: or for a FIFO.
const SNIFF_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

// The callback API on plain descriptors: a listing sniffs thousands of files, and a FileHandle per file (object,
// finaliser, promise wrappers) costs more main-thread time than the four syscalls it wraps.
const openFd = promisify(open);
const fstatFd = promisify(fstat);
const readFd = promisify(read);
const closeFd = promisify(close);

export type HeadResult =
  | { kind: 'regular'; stats: Stats; mime: string }
  /** The name is no longer a regular file (a link, a directory, a pipe swapped in), or could not be opened. */
  | { kind: 'other'; code: string | undefined };

/**
 * Opens `name` inside a verified directory without following a link, checks on the descriptor that it is a
 * regular file, and tells text from binary by its first bytes. `head` is scratch space of at least SNIFF_BYTES.
 * The stats are the opened inode's own, so they describe exactly the bytes that were read.
 */
export async function readHead(directory: DirectoryHandle, name: string, head: Buffer): Promise<HeadResult> {
  let fd: number;
  try {
    fd = await openFd(directory.child(name), SNIFF_FLAGS);
  } catch (error) {
    return { kind: 'other', code: (error as NodeJS.ErrnoException).code };
  }
  try {
    const stats = await fstatFd(fd).catch(() => undefined);
    if (stats === undefined || !stats.isFile()) return { kind: 'other', code: undefined };
    // Unreadable (an I/O error): binary, as before, so the panel does not offer the editor.
    const mime = await readFd(fd, head, 0, SNIFF_BYTES, 0).then(
      ({ bytesRead }) => mimeFromContent(head.subarray(0, bytesRead)),
      () => 'application/octet-stream',
    );
    return { kind: 'regular', stats, mime };
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}
