import { adminPermissions } from '@aerie/shared/admin-roles/admin-permissions';
import type { PageUser } from '@aerie/shared/boot/page-globals';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { toUser } from '@/lib/page-globals';
import { useUserStore } from '@/stores/user-store';
import { createTestI18n } from '@/testing/test-i18n';

export const testSettings = {
  name: 'Aerie Test',
  locale: 'en',
  recaptcha: { enabled: false, siteKey: '' },
  analytics: null,
};

export function pageUser(overrides: Partial<PageUser> = {}): PageUser {
  return {
    uuid: '6c1b4f4e-0b36-4b8e-9a57-54b3b5c2f001',
    username: 'casey',
    email: 'casey@example.com',
    language: 'en',
    root_admin: false,
    // What the shell injects: the whole catalogue for a root admin, a role's permissions, or none.
    admin_permissions: overrides.root_admin ? [...adminPermissions] : [],
    use_totp: false,
    created_at: '2026-01-02T03:04:05+00:00',
    updated_at: '2026-01-02T03:04:05+00:00',
    ...overrides,
  };
}

interface RenderAppOptions {
  /** Signed-in user as the shell would inject it; omitted = guest. */
  user?: PageUser;
  /** Router state of the first entry (e.g. the checkpoint's confirmation token). */
  state?: unknown;
  settings?: Partial<typeof testSettings>;
}

/** Renders the real route table at `path`, the way the browser would after a page load. */
export function renderApp(path: string, { user, state, settings }: RenderAppOptions = {}) {
  window.SiteConfiguration = { ...testSettings, ...settings };
  if (user) {
    window.PterodactylUser = user;
    useUserStore.setState({ user: toUser(user) });
  }
  // 'path?query#hash', each part optional (the file manager keeps its directory in the hash).
  const [beforeHash = '', hash] = path.split('#');
  const [pathname = '', search] = beforeHash.split('?');
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname, search: search ? `?${search}` : '', hash: hash ? `#${hash}` : '', state }],
  });
  const events = userEvent.setup();
  const result = render(
    <AppProvider i18n={createTestI18n()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, user: events };
}

/** Renders one component with translations, outside the router. */
export function renderWithI18n(ui: ReactNode) {
  window.SiteConfiguration ??= testSettings;
  return render(<AppProvider i18n={createTestI18n()}>{ui}</AppProvider>);
}
