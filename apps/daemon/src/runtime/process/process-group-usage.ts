import { readProcStat } from './proc-stat';
import { scanProcessGroups } from './process-group-scan';

/** Linux reports utime/stime in USER_HZ, which is 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
/**
 * How long the members one /proc scan found are trusted. Between scans only their own stat files are read (two
 * for a `sh -c game` server, instead of every process on the host); a process the game forks later is counted
 * from the next scan on (a young group is scanned more often, see sample()).
 */
const MEMBERS_MAX_AGE_MS = 10_000;

/** What one process group uses now. */
export interface GroupUsage {
  /** RSS of every live member. */
  rssBytes: number;
  /** Since the previous sample: 100 = one full core, 3 decimals. */
  cpuPercent: number;
}

/** CPU use over an interval as Wings reports it: 100 = one full core, 3 decimals. */
function cpuPercent(usedTicks: number, elapsedMs: number): number {
  if (elapsedMs <= 0) return 0;
  const used = usedTicks / CLOCK_TICKS_PER_SECOND;
  return Math.round((used / (elapsedMs / 1000)) * 100 * 1000) / 1000;
}

/**
 * The usage of one process group (a process server: its shell, the game, whatever they started), summed over its
 * members. Members are learnt from a shared /proc scan every MEMBERS_MAX_AGE_MS; each sample reads only theirs,
 * and a member whose stat is gone, a zombie or in another group (its pid reused) is dropped at once.
 */
export class ProcessGroupUsage {
  readonly #groupId: number;
  readonly #spawnedAt: number;
  /** Each member's CPU ticks at the previous sample (or when it was first seen). */
  readonly #members = new Map<number, number>();
  #membersLearntAt: number | undefined;
  #sampledAt: number;
  #cpuPercent = 0;

  /**
   * @param groupId the leader's pid
   * @param options.spawnedAt when the leader was spawned: the first CPU figure runs from it
   */
  constructor(groupId: number, options: { spawnedAt?: number } = {}) {
    this.#groupId = groupId;
    this.#spawnedAt = options.spawnedAt ?? Date.now();
    this.#sampledAt = this.#spawnedAt;
  }

  async sample(): Promise<GroupUsage> {
    const learntAt = this.#membersLearntAt;
    // A young group is still starting its processes (the shell forks the game): its members are trusted only
    // as long as the group had lived when they were learnt, so scans come often at first and settle at the max.
    const trustedMs = Math.min(MEMBERS_MAX_AGE_MS, (learntAt ?? 0) - this.#spawnedAt);
    if (learntAt === undefined || Date.now() - learntAt > trustedMs) await this.#learnMembers();
    let rssBytes = 0;
    let usedTicks = 0;
    for (const [pid, previousTicks] of this.#members) {
      const stat = readProcStat(pid);
      if (stat?.groupId !== this.#groupId) {
        this.#members.delete(pid);
        continue;
      }
      rssBytes += stat.rssBytes;
      // A member that ended takes its ticks with it: its last interval is lost rather than counted negative.
      usedTicks += Math.max(0, stat.cpuTicks - previousTicks);
      this.#members.set(pid, stat.cpuTicks);
    }
    const takenAt = Date.now();
    if (takenAt > this.#sampledAt) {
      this.#cpuPercent = cpuPercent(usedTicks, takenAt - this.#sampledAt);
      this.#sampledAt = takenAt;
    }
    return { rssBytes, cpuPercent: this.#cpuPercent };
  }

  async #learnMembers(): Promise<void> {
    const firstTime = this.#membersLearntAt === undefined;
    const startedAt = Date.now();
    const groups = await scanProcessGroups(this.#spawnedAt);
    for (const pid of groups.get(this.#groupId) ?? []) {
      if (this.#members.has(pid)) continue;
      // The first scan finds what was born since the spawn: all its time is new. A member found by a later scan
      // may have run unseen for a while; counting that time in one interval would show a spike, so it counts
      // from now.
      this.#members.set(pid, firstTime ? 0 : (readProcStat(pid)?.cpuTicks ?? 0));
    }
    this.#membersLearntAt = startedAt;
  }
}
