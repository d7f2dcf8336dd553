import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { ErrorCircleIcon } from '@/components/ui/icons';
import { ErrorPage, NotFoundPage } from '@/components/ui/screen-block';

/** A lazy route chunk that failed to download (e.g. after a new release replaced the hashed files). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /dynamically imported module|Importing a module script failed|error loading dynamically imported/i.test(
      error.message,
    )
  );
}

/** What a route shows instead of its content when loading or rendering it failed. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { t } = useTranslation();

  if (isRouteErrorResponse(error) && error.status === 404)
    return <NotFoundPage onBack={() => navigate(-1)} />;
  if (isChunkLoadError(error)) {
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
