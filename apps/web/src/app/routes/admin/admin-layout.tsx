import clsx from 'clsx';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Route, Routes, useNavigate } from 'react-router';
import {
  type AdminRequirement,
  adminRoutes,
  adminSections,
  meetsRequirement,
} from '@/app/routes/admin/admin-routes';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAdminGrant } from '@/hooks/use-admin-can';

const sectionPath = (path: string) => (path ? `${paths.admin}/${path}` : paths.admin);

/**
 * The admin area's frame: a side menu beside the page. Root admins and users with an admin role: the menu and
 * the pages are the ones their permissions read, anything else is the not-found page (and the router never loads
 * this chunk for other users; the API refuses them anyway). Its strings are the `admin` namespace, loaded here so
 * other users never fetch them.
 */
export default function AdminLayout() {
  const grant = useAdminGrant();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation('admin');
  const [ready, setReady] = useState(() => i18n.hasLoadedNamespace('admin'));
  useEffect(() => {
    if (!ready) void i18n.loadNamespaces('admin').then(() => setReady(true));
  }, [i18n, ready]);

  if (!grant) return <NotFoundPage onBack={() => navigate(-1)} />;
  if (!ready) return <SpinnerBlock />;
  const allowed = (permission?: AdminRequirement) => meetsRequirement(grant, permission);
  const sections = adminSections.filter((section) => allowed(section.permission));
  const notFound = <NotFoundPage onBack={() => navigate(-1)} />;
  // A role without the overview lands on the first area it reads; Application API (every admin's own keys) is the
  // last resort.
  const landing = sections.find((section) => section.permission !== undefined)?.path ?? 'api';
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row lg:py-10">
      <nav aria-label={t('nav.label')} className="lg:w-52 lg:shrink-0">
        <ul className="flex gap-1 overflow-x-auto lg:flex-col">
          {sections.map((section) => (
            <li key={section.nav}>
              <NavLink
                to={sectionPath(section.path)}
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
            {adminRoutes.map(({ path, index, lazy: Page, permission }) => {
              const element = allowed(permission) ? (
                <Page />
              ) : index ? (
                <Navigate to={sectionPath(landing)} replace />
              ) : (
                notFound
              );
              return <Route key={path ?? ''} path={path} index={index} element={element} />;
            })}
            <Route path="*" element={notFound} />
          </Routes>
        </Suspense>
      </div>
    </div>
  );
}
