import { readdir } from 'node:fs/promises';
import { readProcStat } from './proc-stat';

/** One pass over /proc serves every group that asks within this long (100 servers starting together). */
const SCAN_MAX_AGE_MS = 500;
/** Processes read between two yields to the event loop, so a host with thousands of them never stalls it. */
const BATCH = 64;

/** Live pids by process group. */
export type GroupMembers = ReadonlyMap<number, readonly number[]>;

let current: Promise<GroupMembers> | undefined;
let currentAt = 0;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function scan(): Promise<GroupMembers> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const groups = new Map<number, number[]>();
  for (let index = 0; index < pids.length; index += 1) {
    if (index > 0 && index % BATCH === 0) await nextTurn();
    const pid = pids[index] as number;
    // Undefined: the process ended between the listing and the read.
    const stat = readProcStat(pid);
    if (!stat) continue;
    const members = groups.get(stat.groupId);
    if (members) members.push(pid);
    else groups.set(stat.groupId, [pid]);
  }
  return groups;
}

/**
 * Every process of every group, from one pass over /proc. The only way to learn which processes a group holds
 * (a game's children, their children, orphans the kernel reparented), and the costly part of usage: callers
 * keep the members they learnt and ask again only now and then. `notBefore`: ms since the epoch the pass must
 * not have begun before.
 */
export function scanProcessGroups(notBefore = 0): Promise<GroupMembers> {
  // A pass that began before `notBefore` (a group's spawn) cannot have seen that group.
  if (!current || currentAt < notBefore || Date.now() - currentAt > SCAN_MAX_AGE_MS) {
    currentAt = Date.now();
    current = scan();
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}
