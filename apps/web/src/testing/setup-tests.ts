import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { getQueryClient } from '@/lib/query-client';
import { useFlashStore } from '@/stores/flash-store';
import { useProgressStore } from '@/stores/progress-store';
import { useUserStore } from '@/stores/user-store';

// The first render of a route compiles its lazy chunk; on a busy two-core CI machine that can take seconds (the
// admin node list's first row took over 5 s with the panel's and daemon's suites beside it). A bound on a hang, under
// the 15 s test time-out, not a speed goal.
configure({ asyncUtilTimeout: 10_000 });

// jsdom does not scroll; React Router's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;

// jsdom has no media queries; xterm.js reads the device pixel ratio through one. Nothing ever matches here.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }) satisfies MediaQueryList;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
  document.title = '';
  document.head.querySelectorAll('script, meta[name="csrf-token"]').forEach((node) => {
    node.remove();
  });
  delete window.PterodactylUser;
  delete window.SiteConfiguration;
  useUserStore.setState({ user: null });
  useFlashStore.setState({ items: [] });
  useProgressStore.setState({ continuous: false, progress: undefined, pending: 0 });
  getQueryClient().clear();
});
