import { useEffect } from 'react';
import { flashActions } from '@/stores/flash-store';

/**
 * A tabbed page's notices ("Saved.", an error) are about the tab they were given on: they go when the user moves
 * to another tab (or leaves), and stay on the tab a notice was given for before arriving (a "created" notice).
 */
export function useTabFlashes(flashKey: string, tab: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tab` is what the clean-up waits for, not an input.
  useEffect(() => () => flashActions().clearFlashes(flashKey), [flashKey, tab]);
}
