import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import os from 'node:os';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Node's names → Go's GOARCH names, which Wings reports and the panel's admin pages expect. */
const GO_ARCH: Record<string, string> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: '386',
  ppc64: 'ppc64le',
  s390x: 's390x',
};

export interface SystemInfo {
  version: string;
  kernel_version: string;
  architecture: string;
  os: string;
  cpu_count: number;
  /** The machine's memory (Wings' v2 system answer carries it as `memory_bytes`). */
  memory_bytes: number;
  /** Size of the file system holding the daemon's data directory (volumes, staged uploads, state); Aerie's. */
  disk_total_bytes: number | null;
  /** What is left of it for writing (statfs `bavail`: without the blocks kept for root); Aerie's. */
  disk_free_bytes: number | null;
}

/**
 * What GET /api/system answers, in Wings' field names, plus the data directory's disk figures, read afresh on
 * every call (one statfs) so the panel sees a disk filling up as it happens. Null when they cannot be read, or
 * when no data directory is given.
 */
export async function systemInfo(dataDirectory?: string): Promise<SystemInfo> {
  const disk = dataDirectory === undefined ? undefined : await statfs(dataDirectory).catch(() => undefined);
  return {
    version,
    kernel_version: os.release(),
    architecture: GO_ARCH[process.arch] ?? process.arch,
    os: process.platform,
    cpu_count: os.availableParallelism(),
    memory_bytes: os.totalmem(),
    disk_total_bytes: disk ? disk.blocks * disk.bsize : null,
    disk_free_bytes: disk ? disk.bavail * disk.bsize : null,
  };
}
