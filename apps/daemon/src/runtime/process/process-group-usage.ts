import { readdir, readFile } from 'node:fs/promises';

/** Linux reports utime/stime in USER_HZ, which is 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
/** One /proc scan serves every server sampled within this long (100 servers, one scan a second). */
const SNAPSHOT_MAX_AGE_MS = 500;

/** What /proc says about one process group. */
export interface GroupSample {
  rssBytes: number;
  /** utime + stime of every live member, in clock ticks. */
  cpuTicks: number;
  /** When /proc was read (ms since the epoch). */
  takenAt: number;
}

interface ProcessEntry {
  pid: string;
  cpuTicks: number;
}

/** Live processes by process group, from one pass over /proc/<pid>/stat. */
interface Snapshot {
  takenAt: number;
  groups: Map<number, ProcessEntry[]>;
}

let current: Promise<Snapshot> | undefined;
let currentAt = 0;

async function readEntry(pid: string): Promise<[number, ProcessEntry] | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command name, which is in parentheses and may hold spaces: [0] state, [2] pgrp, [11] utime,
    // [12] stime (stat(5) fields 3, 5, 14, 15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined;
    return [Number(fields[2]), { pid, cpuTicks: Number(fields[11]) + Number(fields[12]) }];
  } catch {
    // The process ended between the listing and the read.
    return undefined;
  }
}

async function takeSnapshot(): Promise<Snapshot> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const entries = await Promise.all(pids.map(readEntry));
  const groups = new Map<number, ProcessEntry[]>();
  for (const entry of entries) {
    if (!entry) continue;
    const members = groups.get(entry[0]);
    if (members) members.push(entry[1]);
    else groups.set(entry[0], [entry[1]]);
  }
  return { takenAt: Date.now(), groups };
}

function snapshot(): Promise<Snapshot> {
  if (!current || Date.now() - currentAt > SNAPSHOT_MAX_AGE_MS) {
    currentAt = Date.now();
    current = takeSnapshot();
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}

async function rssOf(pid: string): Promise<number> {
  // VmRSS is in kB whatever the page size; kernel threads and processes that just ended have none.
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
}

/** Sums RSS and CPU time of every process whose process group is `groupId` (the runtime's leader pid). */
export async function sampleProcessGroup(groupId: number): Promise<GroupSample> {
  const { takenAt, groups } = await snapshot();
  const members = groups.get(groupId) ?? [];
  const sizes = await Promise.all(members.map((member) => rssOf(member.pid)));
  return {
    rssBytes: sizes.reduce((sum, size) => sum + size, 0),
    cpuTicks: members.reduce((sum, member) => sum + member.cpuTicks, 0),
    takenAt,
  };
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
