import { paths } from '@/config/paths';
import { type ApiClient, isTwoFactorRequired, type RequestInfo } from '@/lib/api-client';
import { useProgressStore } from '@/stores/progress-store';

/** Polling calls (server usage) and debug-bar calls would keep the bar running forever, so they don't count. */
export function movesProgressBar({ url }: RequestInfo): boolean {
  const path = url.split('?')[0] ?? url;
  return !path.endsWith('/resources') && !path.includes('/_debugbar/');
}

interface Wiring {
  navigate: (to: string, options: { state: { twoFactorRedirect: true } }) => unknown;
  currentPath: () => string;
}

/**
 * Connects the transport to the app: the top progress bar follows requests, and an account that must turn on
 * two-factor is sent to /account (with the flag the account page shows a banner for).
 */
export function wireApiClient(client: ApiClient, { navigate, currentPath }: Wiring): () => void {
  const unsubscribe = [
    client.onRequestStart((info) => {
      if (movesProgressBar(info)) useProgressStore.getState().startContinuous();
    }),
    client.onRequestEnd((info) => {
      if (movesProgressBar(info)) useProgressStore.getState().setComplete();
    }),
    client.onError((error) => {
      if (!isTwoFactorRequired(error)) return;
      if (currentPath() !== paths.account) navigate(paths.account, { state: { twoFactorRedirect: true } });
    }),
  ];
  return () => {
    for (const off of unsubscribe) off();
  };
}
