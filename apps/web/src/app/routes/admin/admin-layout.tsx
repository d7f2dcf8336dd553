import clsx from 'clsx';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Route, Routes, useNavigate } from 'react-router';
import { adminRoutes, adminSections } from '@/app/routes/admin/admin-routes';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useUserStore } from '@/stores/user-store';

/**
 * The admin area's frame: a side menu beside the page. Root admins only: anyone else gets the not-found page (and
 * the router never loads this chunk for them; the API refuses them anyway). Its strings are the `admin`
 * namespace, loaded here so other users never fetch them.
 */
export default function AdminLayout() {
  const user = useUserStore((state) => state.user);
  const navigate = useNavigate();
  const { t, i18n } = useTranslation('admin');
  const [ready, setReady] = useState(() => i18n.hasLoadedNamespace('admin'));
  useEffect(() => {
    if (!ready) void i18n.loadNamespaces('admin').then(() => setReady(true));
  }, [i18n, ready]);

  if (!user?.rootAdmin) return <NotFoundPage onBack={() => navigate(-1)} />;
  if (!ready) return <SpinnerBlock />;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row lg:py-10">
      <nav aria-label={t('nav.label')} className="lg:w-52 lg:shrink-0">
        <ul className="flex gap-1 overflow-x-auto lg:flex-col">
          {adminSections.map((section) => (
            <li key={section.nav}>
              <NavLink
                to={section.path ? `${paths.admin}/${section.path}` : paths.admin}
                end={section.path === ''}
                className={({ isActive }) =>
                  clsx(
                    'block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                    isActive ? 'bg-ink-800 text-white' : 'text-ink-300 hover:bg-ink-800/70 hover:text-white',
                  )
                }
              >
                {t(`nav.${section.nav}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        <Suspense fallback={<SpinnerBlock />}>
          <Routes>
            {adminRoutes.map(({ path, index, lazy: Page }) => (
              <Route key={path ?? ''} path={path} index={index} element={<Page />} />
            ))}
            <Route path="*" element={<NotFoundPage onBack={() => navigate(-1)} />} />
          </Routes>
        </Suspense>
      </div>
    </div>
  );
}
