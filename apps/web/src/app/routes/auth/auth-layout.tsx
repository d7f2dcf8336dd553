import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Footer } from '@/components/layout/footer';
import { MAIN_CONTENT_ID } from '@/components/layout/skip-link';
import { flashActions } from '@/stores/flash-store';

/** The sign-in area's frame: a centred column over a soft glow, with the copyright line at the bottom. */
export function AuthLayout() {
  const { pathname } = useLocation();
  // A message belongs to the form that raised it: moving to another sign-in page starts clean.
  useEffect(() => {
    if (pathname) flashActions().clearFlashes();
  }, [pathname]);

  return (
    <div className="relative flex min-h-screen flex-col overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_32rem_at_50%_-8rem,rgb(14_165_233/0.16),transparent_70%)]"
      />
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="outline-none relative flex flex-1 items-center justify-center px-4 py-10 sm:py-16"
      >
        <Outlet />
      </main>
      <Footer className="relative" />
    </div>
  );
}
