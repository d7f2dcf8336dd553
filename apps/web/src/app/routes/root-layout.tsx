import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { SkipLink } from '@/components/layout/skip-link';
import { ProgressBar } from '@/components/ui/progress-bar';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useRouteFocus } from '@/hooks/use-route-focus';

/** Every page: the skip link first in the tab order, the progress bar, and focus moved to the heading on navigation. */
export function RootLayout() {
  useRouteFocus();
  return (
    <>
      <SkipLink />
      <ProgressBar />
      <Suspense fallback={<FullPageSpinner />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
