import { Outlet } from 'react-router';
import { Footer } from '@/components/layout/footer';

/** The sign-in area's frame: a centred column over a soft glow, with the copyright line at the bottom. */
export function AuthLayout() {
  return (
    <div className="relative flex min-h-screen flex-col overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 mx-auto h-[28rem] max-w-3xl rounded-full bg-brand-500/15 blur-3xl"
      />
      <main className="relative flex flex-1 items-center justify-center px-4 py-10 sm:py-16">
        <Outlet />
      </main>
      <Footer className="relative" />
    </div>
  );
}
