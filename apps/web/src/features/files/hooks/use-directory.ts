import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { decodePathHash } from '@/features/files/utils/paths';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/**
 * The directory the URL hash names. It is mirrored into the server state store, whose setter clears the selection,
 * so changing directory always drops the selected files (spec "File manager").
 */
export function useDirectory(): string {
  const { hash } = useLocation();
  const directory = decodePathHash(hash);
  const setDirectory = useServerStateStore((state) => state.setDirectory);
  useEffect(() => setDirectory(directory), [directory, setDirectory]);
  return directory;
}
