import { useState } from 'react';
import { usePersistedState } from '@/lib/persisted-state';

/** Commands remembered per server (newest first). */
export const commandHistoryLimit = 32;

/**
 * The console's sent commands, kept in local storage per server, walked with the arrow keys like a shell: `older`
 * (up) goes back one step at a time, `newer` (down) comes forward and ends on an empty line.
 */
export function useCommandHistory(serverUuid: string) {
  const [history, setHistory] = usePersistedState<string[]>(`${serverUuid}:command_history`, []);
  const [index, setIndex] = useState(-1);
  return {
    history,
    push(command: string) {
      setHistory((previous) => [command, ...previous].slice(0, commandHistoryLimit));
      setIndex(-1);
    },
    older(): string {
      const next = Math.min(index + 1, history.length - 1);
      setIndex(next);
      return history[next] ?? '';
    },
    newer(): string {
      const next = Math.max(index - 1, -1);
      setIndex(next);
      return history[next] ?? '';
    },
  };
}
