import { readdir, readFile } from 'node:fs/promises';

/** Linux reports utime/stime in USER_HZ, which is 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** What /proc says about one process group right now. */
export interface GroupSample {
  rssBytes: number;
  /** utime + stime of every live member, in clock ticks. */
  cpuTicks: number;
}

/** Fields after the command name of /proc/<pid>/stat (the name is in parentheses and may hold spaces). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

async function sampleProcess(pid: string, groupId: number): Promise<GroupSample | undefined> {
  try {
    const fields = statFields(await readFile(`/proc/${pid}/stat`, 'utf8'));
    // fields[0] = state, [2] = pgrp, [11] = utime, [12] = stime (stat(5) fields 3, 5, 14, 15).
    if (Number(fields[2]) !== groupId || fields[0] === 'Z') return undefined;
    const cpuTicks = Number(fields[11]) + Number(fields[12]);
    // VmRSS is in kB whatever the page size; kernel threads and zombies have none.
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    return { rssBytes: rssKb * 1024, cpuTicks };
  } catch {
    // The process ended between the listing and the read.
    return undefined;
  }
}

/** Sums RSS and CPU time of every process whose process group is `groupId` (the runtime's leader pid). */
export async function sampleProcessGroup(groupId: number): Promise<GroupSample> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const samples = await Promise.all(pids.map((pid) => sampleProcess(pid, groupId)));
  let rssBytes = 0;
  let cpuTicks = 0;
  for (const sample of samples) {
    if (!sample) continue;
    rssBytes += sample.rssBytes;
    cpuTicks += sample.cpuTicks;
  }
  return { rssBytes, cpuTicks };
}

/**
 * CPU use between two samples as Wings reports it: 100 = one full core, 3 decimals. Members that ended take their
 * ticks with them, so a drop counts as zero rather than negative.
 */
export function cpuPercent(previousTicks: number, ticks: number, elapsedMs: number): number {
  if (elapsedMs <= 0) return 0;
  const used = Math.max(0, ticks - previousTicks) / CLOCK_TICKS_PER_SECOND;
  return Math.round((used / (elapsedMs / 1000)) * 100 * 1000) / 1000;
}
