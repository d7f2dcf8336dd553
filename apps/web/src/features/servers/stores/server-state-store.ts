import { create } from 'zustand';

/**
 * Client-only state of the open server (spec §3 "Per-server client state") that is not server data: the power
 * state the console reports, whether its console socket is connected, the file manager's directory and selection. Server data itself lives in the query
 * cache under `serverKeys.detail(id)`.
 */
interface ServerState {
  /** Power state from the daemon (offline, starting, running, stopping); null until known. */
  status: string | null;
  /** True while the console socket is open and authenticated. */
  connected: boolean;
  directory: string;
  selectedFiles: string[];
  setStatus: (status: string | null) => void;
  setConnected: (connected: boolean) => void;
  setDirectory: (directory: string) => void;
  setSelectedFiles: (files: string[]) => void;
  clear: () => void;
}

const initial = { status: null, connected: false, directory: '/', selectedFiles: [] as string[] };

export const useServerStateStore = create<ServerState>()((set) => ({
  ...initial,
  setStatus: (status) => set({ status }),
  setConnected: (connected) => set({ connected }),
  // Changing directory clears the selection (server-pages §2).
  setDirectory: (directory) => set({ directory, selectedFiles: [] }),
  setSelectedFiles: (selectedFiles) => set({ selectedFiles }),
  clear: () => set(initial),
}));
