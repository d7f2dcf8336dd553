import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of one process in bytes (VmRSS), or 0 once it is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process below `pid` (children, their children…), read from /proc. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(name)]);
    } catch {
      // ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of parents.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** CPU time (user + system) a process has used, in milliseconds. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, counted in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; the peak is what a flood costs at its worst. */
export function sampleRss(pid: number, everyMs = 20): { stop: () => number } {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssBytes(pid));
    },
  };
}

/** The median of `count` RSS readings `everyMs` apart: one reading can land on a GC. */
export async function settledRss(pid: number, count = 5, everyMs = 500): Promise<number> {
  const readings: number[] = [];
  for (let index = 0; index < count; index += 1) {
    readings.push(rssBytes(pid));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return readings.sort((a, b) => a - b)[Math.floor(count / 2)] ?? 0;
}
