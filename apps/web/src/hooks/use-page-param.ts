import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';

/** `?page=` as a positive integer; anything else is page 1. */
export function parsePage(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw)) return 1;
  const page = Number(raw);
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

/**
 * The list page kept in the address: page 1 is the bare path, any other `?page=N` (spec "Dashboard"). Odd values
 * (`?page=1`, `?page=x`, `?page=02`) are rewritten to their canonical form.
 */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('page');
  const page = parsePage(raw);

  const setPage = useCallback(
    (next: number) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (next > 1) updated.set('page', String(next));
          else updated.delete('page');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  useEffect(() => {
    if (raw !== null && raw !== (page > 1 ? String(page) : null)) setPage(page);
  }, [raw, page, setPage]);

  return [page, setPage];
}
