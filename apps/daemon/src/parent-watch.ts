/** How often a supervised daemon checks that its supervisor is still there. */
export const PARENT_CHECK_MS = 1000;

/**
 * Calls `onGone` once the process whose pid is `supervisorPid` is no longer this process's parent (it died and
 * the daemon was re-parented). `aerie up` killed outright cannot stop its daemon, which would otherwise keep its
 * port and its game servers until someone finds it. Returns a function that stops watching.
 */
export function watchSupervisor(supervisorPid: number, onGone: () => void): () => void {
  const timer = setInterval(() => {
    if (process.ppid === supervisorPid) return;
    clearInterval(timer);
    onGone();
  }, PARENT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
