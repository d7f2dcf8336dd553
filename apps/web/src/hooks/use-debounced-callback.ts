import { useEffect, useMemo, useRef } from 'react';

export interface DebouncedCallback<A extends unknown[]> {
  (...args: A): void;
  /** Runs a pending call now. */
  flush: () => void;
  /** Drops a pending call. */
  cancel: () => void;
}

/**
 * `callback` run once calls have stopped for `delayMs`, with the last call's arguments. A call still pending when
 * the component goes away runs then, so leaving the page right after typing does not lose what was typed.
 */
export function useDebouncedCallback<A extends unknown[]>(
  callback: (...args: A) => void,
  delayMs: number,
): DebouncedCallback<A> {
  // The latest callback, so a pending call uses what the component last rendered with.
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });

  const debounced = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: A | undefined;
    const run = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const args = pending;
      pending = undefined;
      if (args) latest.current(...args);
    };
    const call = (...args: A) => {
      pending = args;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(run, delayMs);
    };
    return Object.assign(call, {
      flush: run,
      cancel: () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        pending = undefined;
      },
    });
  }, [delayMs]);

  useEffect(() => () => debounced.flush(), [debounced]);
  return debounced;
}
