import { usePersistedState } from '@/lib/persisted-state';
import { useUserStore } from '@/stores/user-store';

/** The root admin's dashboard choice, remembered per user under `{uuid}:show_all_servers` (default off). */
export function useShowAllServers() {
  const uuid = useUserStore((state) => state.user?.uuid ?? 'guest');
  return usePersistedState(`${uuid}:show_all_servers`, false);
}
