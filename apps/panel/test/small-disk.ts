import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real, small file system that can be filled up: a tmpfs mounted on a new temp directory. */
export interface SmallDisk {
  path: string;
  /** Writes a filler file until the kernel answers ENOSPC: nothing more fits, not even a page. */
  fill(): void;
  /** Deletes the filler: the space is back. */
  free(): void;
  /** Frees, unmounts and removes the directory. */
  unmount(): void;
}

/**
 * Why no small disk can be mounted here, or undefined when it can (tried for real: mounted and unmounted at
 * once). Mounting needs root, and a kernel and container that allow it; tests skip with this reason rather than
 * fake a full disk.
 */
export function smallDiskUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    mountSmallDisk(1).unmount();
    return undefined;
  } catch (error) {
    return `mount -t tmpfs was refused: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
  }
}

/** Mounts a tmpfs of `sizeMb` MiB on a new temp directory; call `unmount()` in the teardown. */
export function mountSmallDisk(sizeMb = 8): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), 'aerie-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(path);
    throw error;
  }
  const filler = join(path, 'filler');
  const free = () => rmSync(filler, { force: true });
  return {
    path,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Big pieces first, then pages, then bytes, so the last free page goes too.
        for (const size of [1024 * 1024, 4096, 1]) {
          const piece = Buffer.alloc(size);
          try {
            for (;;) writeSync(fd, piece);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free,
    unmount() {
      free();
      execFileSync('umount', [path], { stdio: 'pipe' });
      rmdirSync(path);
    },
  };
}
