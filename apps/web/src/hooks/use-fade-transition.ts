import { useEffect, useRef, useState } from 'react';

/**
 * Mount/unmount with a fade: `mounted` keeps the element in the DOM during the fade-out, `visible` drives
 * the opacity. `onExited` runs once the fade-out has finished.
 */
export function useFadeTransition(show: boolean, durationMs: number, onExited?: () => void) {
  const [mounted, setMounted] = useState(show);
  const [visible, setVisible] = useState(false);
  const mountedRef = useRef(show);
  const exited = useRef(onExited);
  exited.current = onExited;

  useEffect(() => {
    if (show) {
      mountedRef.current = true;
      setMounted(true);
      // Let the browser paint the transparent state first, so the opacity change animates.
      const frame = requestAnimationFrame(() => setVisible(true));
      return () => cancelAnimationFrame(frame);
    }
    setVisible(false);
    if (!mountedRef.current) return;
    const timer = setTimeout(() => {
      mountedRef.current = false;
      setMounted(false);
      exited.current?.();
    }, durationMs);
    return () => clearTimeout(timer);
  }, [show, durationMs]);

  return { mounted, visible };
}
