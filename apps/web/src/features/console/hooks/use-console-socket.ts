import { createContext, useContext, useEffect, useRef } from 'react';
import type { ConsoleSocket } from '@/features/console/socket/console-socket';

/** The open server's console socket; null until it exists (the provider creates it after the first render). */
export const ConsoleSocketContext = createContext<ConsoleSocket | null>(null);

export const useConsoleSocket = () => useContext(ConsoleSocketContext);

/** Calls `handler` for each daemon `event` while mounted; the latest handler is used without resubscribing. */
export function useSocketEvent(event: string, handler: (...args: string[]) => void) {
  const socket = useConsoleSocket();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => socket?.on(event, (...args) => latest.current(...args)), [socket, event]);
}
