import { type Dispatch, type SetStateAction, useCallback, useState } from 'react';

/** Reads a JSON value from local storage; any failure (absent, unparsable, storage blocked) gives the default. */
export function readPersisted<T>(key: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writePersisted<T>(key: string, value: T): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the value still lives in memory for this page.
  }
}

/** `useState` whose value survives reloads, kept as JSON in local storage under `key`. */
export function usePersistedState<T>(key: string, fallback: T): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() => readPersisted(key, fallback));
  const update = useCallback<Dispatch<SetStateAction<T>>>(
    (next) =>
      setValue((previous) => {
        const resolved = typeof next === 'function' ? (next as (p: T) => T)(previous) : next;
        writePersisted(key, resolved);
        return resolved;
      }),
    [key],
  );
  return [value, update];
}
