import { execFileSync } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A real, small file system that can be filled up: a tmpfs mounted on a new temp directory. */
export interface SmallDisk {
  path: string;
  /**
   * Writes a filler file until the kernel answers ENOSPC (nothing more fits, not even a page), then gives
   * `leaveBytes` back.
   */
  fill(options?: { leaveBytes?: number }): void;
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
  const directory = mkdtempSync(path.join(tmpdir(), 'aerie-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', directory], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(directory);
    throw error;
  }
  const filler = path.join(directory, 'filler');
  const free = () => rmSync(filler, { force: true });
  return {
    path: directory,
    fill({ leaveBytes = 0 } = {}) {
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
        if (leaveBytes > 0) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leaveBytes));
      } finally {
        closeSync(fd);
      }
    },
    free,
    unmount() {
      free();
      execFileSync('umount', [directory], { stdio: 'pipe' });
      rmdirSync(directory);
    },
  };
}
