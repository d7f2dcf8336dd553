import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long after a navigation the new page's heading may take to appear (a lazy chunk, the server's data). */
const WAIT_FOR_HEADING_MS = 5000;

/** The page's own heading: the first h1 inside <main>, else the first h1 at all. */
const findHeading = (): HTMLElement | null =>
  document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');

/**
 * After each change of page (the path; not the query or the hash, which pages use for their own state) focus moves
 * to the new page's heading, so a keyboard or screen-reader user starts at the top of the new content instead of
 * on the body. The first page load is left alone. If the heading is not there yet, it is awaited (up to 5 s); if the
 * user has moved focus meanwhile, nothing is taken from them.
 */
export function useRouteFocus(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const focusedAtNavigation = document.activeElement;
    const userMovedFocus = () =>
      document.activeElement !== focusedAtNavigation &&
      document.activeElement !== document.body &&
      document.activeElement !== null;

    const tryFocus = (): boolean => {
      if (userMovedFocus()) return true;
      const heading = findHeading();
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.dataset.focusTarget = '';
      heading.focus({ preventScroll: true });
      return true;
    };
    if (tryFocus()) return;

    const observer = new MutationObserver(() => {
      if (tryFocus()) stop();
    });
    const timer = setTimeout(() => stop(), WAIT_FOR_HEADING_MS);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname]);
}
