import { useEffect, useRef, useState } from 'react';

/**
 * Mount/unmount with a fade: `mounted` keeps the element in the DOM during the fade-out, `visible` drives
 * the opacity. `onExited` runs once the fade-out has finished.
 */
export function useFadeTransition(show: boolean, durationMs: number, onExited?: () => void) {
  const [mounted, setMounted] = useState(show);
  const [visible, setVisible] = useState(false);
  const exited = useRef(onExited);
  exited.current = onExited;

  useEffect(() => {
    if (show) {
      setMounted(true);
      // Let the browser paint the transparent state first, so the opacity change animates.
      const frame = requestAnimationFrame(() => setVisible(true));
      return () => cancelAnimationFrame(frame);
    }
    setVisible(false);
    const timer = setTimeout(() => {
      setMounted((wasMounted) => {
        if (wasMounted) exited.current?.();
        return false;
      });
    }, durationMs);
    return () => clearTimeout(timer);
  }, [show, durationMs]);

  return { mounted, visible };
}
