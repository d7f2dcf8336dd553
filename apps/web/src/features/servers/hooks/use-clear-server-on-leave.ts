import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { serverKeys } from '@/features/servers/api/servers';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/**
 * Leaving a server (or switching to another) forgets everything about it: its cached data and permissions,
 * every query kept under its key (databases, subusers, schedules…) and the client state. The next visit
 * loads it fresh, so a revoked permission is never served from memory.
 */
export function useClearServerOnLeave(id: string) {
  const queryClient = useQueryClient();
  useEffect(
    () => () => {
      useServerStateStore.getState().clear();
      // After this tick, so a remount of the same server (React's development double effects) keeps its cache.
      setTimeout(() => {
        const cache = queryClient.getQueryCache();
        for (const query of cache.findAll({ queryKey: serverKeys.detail(id) }))
          if (query.getObserversCount() === 0) cache.remove(query);
      }, 0);
    },
    [id, queryClient],
  );
}
