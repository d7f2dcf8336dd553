import { useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import { QueryProvider } from '@/app/query-provider';
import { Footer } from '@/components/layout/footer';
import { NavigationBar } from '@/components/layout/navigation-bar';
import { paths } from '@/config/paths';
import { SearchModal } from '@/features/search/components/search-modal';
import { useSearchShortcut } from '@/features/search/hooks/use-search-shortcut';
import { useUserStore } from '@/stores/user-store';

/** The signed-in frame: navigation bar, the page, the footer. Guests are sent to the login page. */
export function AppLayout() {
  const user = useUserStore((state) => state.user);
  const [searching, setSearching] = useState(false);
  useSearchShortcut(() => setSearching(true), user !== null);

  if (!user) return <Navigate to={paths.auth.login} replace />;
  return (
    <QueryProvider>
      <div className="flex min-h-screen flex-col">
        <NavigationBar rootAdmin={user.rootAdmin} onSearch={() => setSearching(true)} />
        <main className="flex flex-1 flex-col">
          <Outlet />
        </main>
        <Footer />
        <SearchModal visible={searching} onDismissed={() => setSearching(false)} />
      </div>
    </QueryProvider>
  );
}
