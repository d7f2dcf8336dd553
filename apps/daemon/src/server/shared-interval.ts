/** Callbacks by period, each period driven by one timer. */
const clocks = new Map<number, { timer: NodeJS.Timeout; callbacks: Set<() => void> }>();

/**
 * Calls `callback` every `periodMs` on a timer shared with every other callback of the same period: 100 running
 * servers wake the event loop once a second instead of 100 times, and sample /proc back to back. Unref'd, like a
 * timer of its own would be. Returns the function that stops it; the timer goes with its last callback.
 */
export function everyInterval(periodMs: number, callback: () => void): () => void {
  let clock = clocks.get(periodMs);
  if (!clock) {
    const callbacks = new Set<() => void>();
    const timer = setInterval(() => {
      for (const each of callbacks) each();
    }, periodMs);
    timer.unref();
    clock = { timer, callbacks };
    clocks.set(periodMs, clock);
  }
  // A wrapper per call: the same function registered twice is stopped separately.
  const entry = () => callback();
  clock.callbacks.add(entry);
  const owner = clock;
  return () => {
    owner.callbacks.delete(entry);
    if (owner.callbacks.size === 0 && clocks.get(periodMs) === owner) {
      clearInterval(owner.timer);
      clocks.delete(periodMs);
    }
  };
}
