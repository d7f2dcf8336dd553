import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { ProgressBar } from '@/components/ui/progress-bar';
import { FullPageSpinner } from '@/components/ui/spinner';

export function RootLayout() {
  return (
    <>
      <ProgressBar />
      <Suspense fallback={<FullPageSpinner />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
