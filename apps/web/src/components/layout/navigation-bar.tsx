import clsx from 'clsx';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import {
  CogIcon,
  LogoMark,
  LogoutIcon,
  SearchIcon,
  ServerStackIcon,
  UserCircleIcon,
} from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { readSettings } from '@/lib/page-globals';

const itemClasses = (active = false) =>
  clsx(
    'inline-flex h-10 items-center gap-2 rounded-lg px-3 text-sm font-medium transition-colors duration-150',
    active ? 'bg-ink-800 text-white' : 'text-ink-300 hover:bg-ink-800/70 hover:text-white',
  );

/** Icon plus a label that shows from the medium breakpoint up; the accessible name is always the label. */
function ItemContent({ icon, label }: { icon: ReactNode; label: string }) {
  return (
    <>
      {icon}
      <span className="hidden md:inline">{label}</span>
    </>
  );
}

interface NavigationBarProps {
  /** Shows the admin link: root admins and users with an admin role. */
  adminArea: boolean;
  onSearch: () => void;
}

export function NavigationBar({ adminArea, onSearch }: NavigationBarProps) {
  const { t } = useTranslation();
  const icon = 'size-5 shrink-0';
  return (
    <header className="sticky top-0 z-40 border-b border-ink-800/80 bg-ink-900/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 px-4 sm:px-6">
        <Link
          to={paths.home}
          className="me-auto flex min-w-0 items-center gap-2.5 rounded-lg text-lg font-semibold tracking-tight text-white"
        >
          <LogoMark className="size-7 shrink-0" />
          <span className="truncate">{readSettings().name}</span>
        </Link>
        <nav aria-label={t('nav.home')} className="flex items-center gap-0.5 sm:gap-1">
          <button
            type="button"
            aria-label={t('nav.search')}
            title={t('nav.search')}
            onClick={onSearch}
            className={itemClasses()}
          >
            <SearchIcon className={icon} />
          </button>
          <NavLink
            to={paths.home}
            end
            aria-label={t('nav.dashboard')}
            className={({ isActive }) => itemClasses(isActive)}
          >
            <ItemContent icon={<ServerStackIcon className={icon} />} label={t('nav.dashboard')} />
          </NavLink>
          <NavLink
            to={paths.account}
            aria-label={t('nav.account')}
            className={({ isActive }) => itemClasses(isActive)}
          >
            <ItemContent icon={<UserCircleIcon className={icon} />} label={t('nav.account')} />
          </NavLink>
          {adminArea && (
            <NavLink
              to={paths.admin}
              aria-label={t('nav.admin')}
              className={({ isActive }) => itemClasses(isActive)}
            >
              <ItemContent icon={<CogIcon className={icon} />} label={t('nav.admin')} />
            </NavLink>
          )}
          <a href={paths.auth.logout} aria-label={t('nav.logout')} className={itemClasses()}>
            <ItemContent icon={<LogoutIcon className={icon} />} label={t('nav.logout')} />
          </a>
        </nav>
      </div>
    </header>
  );
}
