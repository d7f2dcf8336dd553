import { readProcStat } from '@aerie/daemon/runtime/process/proc-stat';
import { scanProcessGroups } from '@aerie/daemon/runtime/process/process-group-scan';

/**
 * Sends `signal` to everything running inside a sandbox whose launcher leads process group `leader`, but not to
 * the launcher itself, nor (bubblewrap) to its init inside the sandbox, the leader's child: bubblewrap dies of a
 * SIGTERM, and with it, through --die-with-parent, the whole sandbox, before the game could shut down gracefully.
 */
export async function signalInsideSandbox(
  leader: number,
  signal: NodeJS.Signals,
  launcher: 'bubblewrap' | 'unshare',
): Promise<void> {
  // A fresh pass: a member forked since the last one must get the signal too.
  const groups = await scanProcessGroups(Date.now());
  for (const pid of groups.get(leader) ?? []) {
    if (pid === leader) continue;
    if (launcher === 'bubblewrap' && readProcStat(pid)?.parentId === leader) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Gone since the scan.
    }
  }
}
