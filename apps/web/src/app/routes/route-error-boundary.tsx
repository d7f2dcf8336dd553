import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { ErrorCircleIcon } from '@/components/ui/icons';
import { ErrorPage, NotFoundPage } from '@/components/ui/screen-block';
import { browser } from '@/lib/browser';

const CHUNK_RELOAD_KEY = 'aerie:chunk-reloads';
/** At most this many automatic reloads within the window; past them the failure is shown instead of looping. */
const CHUNK_RELOADS = 3;
const CHUNK_RELOAD_WINDOW_MS = 60_000;
/** A network change comes in a burst (interfaces added one after another): the reload waits for it to pass. */
const CHUNK_RELOAD_DELAY_MS = 1500;

/**
 * Reloads the page, a little later, when a chunk could not be downloaded: a dropped connection or a network change
 * (the browser aborts every request when an interface comes or goes) usually passes, and a new release's files are
 * then found. @returns a cancel function, or null when the reloads of the last minute are used up
 */
function reloadForChunk(): (() => void) | null {
  const now = Date.now();
  const [since = 0, count = 0] = (sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? '').split(',').map(Number);
  const fresh = now - since > CHUNK_RELOAD_WINDOW_MS;
  if (!fresh && count >= CHUNK_RELOADS) return null;
  sessionStorage.setItem(CHUNK_RELOAD_KEY, fresh ? `${now},1` : `${since},${count + 1}`);
  const timer = setTimeout(() => browser.reload(), CHUNK_RELOAD_DELAY_MS);
  return () => clearTimeout(timer);
}

/** A lazy route chunk, or the CSS Vite preloads with it, that failed to download (e.g. after a new release). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

/** What a route shows instead of its content when loading or rendering it failed. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const chunkFailed = isChunkLoadError(error);
  useEffect(() => {
    if (chunkFailed) return reloadForChunk() ?? undefined;
  }, [chunkFailed]);

  if (isRouteErrorResponse(error) && error.status === 404)
    return <NotFoundPage onBack={() => navigate(-1)} />;
  if (chunkFailed) {
    return (
      <ErrorPage
        message={t('error.chunk')}
        onBack={() => navigate(-1)}
        onRetry={() => window.location.reload()}
      />
    );
  }
  // The page shows a plain sentence; the details stay in the console for whoever investigates.
  console.error(error);
  return (
    <div className="flex w-full justify-center px-4 py-10">
      <div className="flex max-w-xl items-start gap-3 rounded-xl border border-red-500/30 bg-ink-900 px-5 py-4">
        <ErrorCircleIcon className="mt-0.5 size-5 shrink-0 text-red-400" />
        <p className="text-sm leading-relaxed text-ink-100">{t('error.render')}</p>
      </div>
    </div>
  );
}
