import { lazy, Suspense, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { QueryProvider } from '@/app/query-provider';
import { Footer } from '@/components/layout/footer';
import { NavigationBar } from '@/components/layout/navigation-bar';
import { MAIN_CONTENT_ID } from '@/components/layout/skip-link';
import { loginPathFor } from '@/features/auth/utils/intended-address';
import { useSearchShortcut } from '@/features/search/hooks/use-search-shortcut';
import { hasAdminArea } from '@/lib/admin-access';
import { useUserStore } from '@/stores/user-store';

// The search form (react-hook-form + zod) loads the first time search opens, not with every page.
const SearchModal = lazy(async () => ({
  default: (await import('@/features/search/components/search-modal')).SearchModal,
}));

/** The signed-in frame: navigation bar, the page, the footer. Guests are sent to the login page. */
export function AppLayout() {
  const user = useUserStore((state) => state.user);
  const location = useLocation();
  const [searching, setSearching] = useState(false);
  // Mounted from the first opening on, so closing keeps its fade.
  const [searchOpened, setSearchOpened] = useState(false);
  const openSearch = () => {
    setSearchOpened(true);
    setSearching(true);
  };
  useSearchShortcut(openSearch, user !== null);

  // The login page keeps where the guest was going, and goes there once signed in (spec §4 Login).
  if (!user) {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  return (
    <QueryProvider>
      <div className="flex min-h-screen flex-col">
        <NavigationBar adminArea={hasAdminArea(user)} onSearch={openSearch} />
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="outline-none flex flex-1 flex-col">
          <Outlet />
        </main>
        <Footer />
        {searchOpened && (
          <Suspense fallback={null}>
            <SearchModal visible={searching} onDismissed={() => setSearching(false)} />
          </Suspense>
        )}
      </div>
    </QueryProvider>
  );
}
