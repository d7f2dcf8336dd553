import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { serverList } from '@/testing/server-fixtures';
import { startTestServer, type TestServer } from '@/testing/test-server';

describe('sign-in area routes', () => {
  it('shows not-found for an unknown /auth path, with a button back to login', async () => {
    const { user, router } = renderApp('/auth/nowhere');
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Return to Login' }));
    expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('keeps /auth/checkpoint as an empty page', async () => {
    const { router, container } = renderApp('/auth/checkpoint');
    await screen.findByRole('contentinfo');
    expect(router.state.location.pathname).toBe('/auth/checkpoint');
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(container.querySelector('main')).toBeEmptyDOMElement();
  });

  it.each(['/', '/account', '/account/api', '/account/ssh', '/account/activity', '/server/abc'])(
    'sends a guest asking for %s to the login page',
    async (path) => {
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/auth/login');
    },
  );
});

describe('signed-in shell', () => {
  // The dashboard lists servers: an empty list from a real local server.
  let panel: TestServer;
  beforeAll(async () => {
    panel = await startTestServer({
      'GET /api/client': () => ({ body: serverList([]) }),
      'GET /api/client/account/ssh-keys': () => ({ body: { object: 'list', data: [] } }),
      'GET /api/client/account/activity': () => ({
        body: {
          object: 'list',
          data: [],
          meta: {
            pagination: { total: 0, count: 0, per_page: 25, current_page: 1, total_pages: 1, links: [] },
          },
        },
      }),
    });
    apiClient.configure({ baseUrl: panel.url });
  });
  afterAll(async () => {
    apiClient.configure({ baseUrl: '' });
    await panel.close();
  });

  it('shows the dashboard with its title and empty text', async () => {
    renderApp('/', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('There are no servers associated with your account.')).toBeInTheDocument();
    expect(document.title).toBe('Dashboard | Aerie Test');
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      `Aerie Test © 2015 - ${new Date().getFullYear()}`,
    );
  });

  it('gives every user the product name, search, dashboard, account and logout links', async () => {
    renderApp('/', { user: pageUser() });
    const nav = await screen.findByRole('banner');
    expect(within(nav).getByRole('link', { name: 'Aerie Test' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('button', { name: 'Search' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
    expect(within(nav).getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/auth/logout');
    expect(within(nav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('adds the admin link for root admins', async () => {
    renderApp('/', { user: pageUser({ root_admin: true }) });
    const nav = await screen.findByRole('banner');
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('shows the account overview with its sub-navigation', async () => {
    const { user } = renderApp('/account', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Account Overview' })).toBeInTheDocument();
    const sub = screen.getByRole('navigation', { name: 'Account Overview' });
    expect(within(sub).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(sub).getByRole('link', { name: 'API Credentials' }));
    expect(await screen.findByRole('heading', { name: 'Account API' })).toBeInTheDocument();
    expect(within(sub).getByRole('link', { name: 'API Credentials' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(document.title).toBe('Account API | Aerie Test');
  });

  it('offers SSH Keys beside API Credentials in the account sub-navigation', async () => {
    const { user, router } = renderApp('/account/api', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Account API' });
    const sub = screen.getByRole('navigation', { name: 'Account Overview' });
    expect(
      within(sub)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Settings', 'API Credentials', 'SSH Keys', 'Activity']);
    await user.click(within(sub).getByRole('link', { name: 'SSH Keys' }));
    expect(await screen.findByRole('heading', { name: 'Account SSH' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/ssh');
    expect(within(sub).getByRole('link', { name: 'SSH Keys' })).toHaveAttribute('aria-current', 'page');
    expect(within(sub).getByRole('link', { name: 'API Credentials' })).not.toHaveAttribute('aria-current');
    expect(document.title).toBe('Account SSH | Aerie Test');
  });

  it('offers Activity after SSH Keys in the account sub-navigation', async () => {
    const { user, router } = renderApp('/account/ssh', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Account SSH' });
    const sub = screen.getByRole('navigation', { name: 'Account Overview' });
    await user.click(within(sub).getByRole('link', { name: 'Activity' }));
    expect(await screen.findByRole('heading', { name: 'Account Activity Log' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/activity');
    expect(within(sub).getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
    expect(within(sub).getByRole('link', { name: 'SSH Keys' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText('No activity logs available for this account.')).toBeInTheDocument();
    expect(document.title).toBe('Account Activity Log | Aerie Test');
  });

  it('shows the 2-Factor Required banner when sent to the account page for two-factor', async () => {
    renderApp('/account', { user: pageUser(), state: { twoFactorRedirect: true } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '2-Factor RequiredYour account must have two-factor authentication enabled in order to continue.',
    );
  });

  it('has no banner on a plain visit of the account page', async () => {
    renderApp('/account', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Account Overview' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows not-found inside the shell for an unknown page', async () => {
    renderApp('/no/such/page', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
