import { readFileSync } from 'node:fs';
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
}

/** What GET /api/system answers, in Wings' field names. */
export function systemInfo(): SystemInfo {
  return {
    version,
    kernel_version: os.release(),
    architecture: GO_ARCH[process.arch] ?? process.arch,
    os: process.platform,
    cpu_count: os.availableParallelism(),
  };
}
