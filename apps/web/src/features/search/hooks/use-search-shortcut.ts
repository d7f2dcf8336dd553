import { useEffect, useRef } from 'react';

/** meta+/ opens the search, unless the user is typing in a field. */
export function useSearchShortcut(open: () => void, enabled: boolean) {
  const callback = useRef(open);
  callback.current = open;

  useEffect(() => {
    if (!enabled) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (!event.metaKey || event.key !== '/') return;
      const target = event.target;
      if (target instanceof HTMLElement && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA'))
        return;
      event.preventDefault();
      callback.current();
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, [enabled]);
}
