import { paths } from '@/config/paths';
import { safeLocalPath } from '@/lib/browser';

/**
 * Where a guest was going (spec §4 Login: "go to the intended address, else /"). The login page carries it as
 * `/auth/login?redirect=<path>`, from the route guard or from the panel's redirect of a guest's page load, and the
 * checkpoint gets it in the router state. Only a same-origin path outside /auth is ever followed (never an open
 * redirect, and never /auth/logout right after signing in).
 */
export const intendedParam = 'redirect';

/** The address if it is one to follow after signing in, else null. */
export function intendedAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const path = safeLocalPath(value, '');
  if (path === '' || path === paths.home || path === '/auth' || path.startsWith('/auth/')) return null;
  return path;
}

/** The login page for a guest who asked for `path` (plain /auth/login when there is nothing to remember). */
export function loginPathFor(path: string | null | undefined): string {
  const intended = intendedAddress(path);
  if (intended === null) return paths.auth.login;
  return `${paths.auth.login}?${new URLSearchParams({ [intendedParam]: intended })}`;
}

/** The intended address a login page's query carries, or null. */
export const intendedFromSearch = (search: URLSearchParams): string | null =>
  intendedAddress(search.get(intendedParam));

/** Where a completed sign-in goes: the remembered address, else the panel's `intended`, else /. */
export const afterSignIn = (remembered: string | null, answered: string | null | undefined): string =>
  remembered ?? safeLocalPath(answered);
