import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { serverList } from '@/testing/server-fixtures';

const panel = setUpPanelTestServer();

const serveAccountPages = () => {
  panel.on('GET /api/client', () => ({ body: serverList([]) }));
  panel.on('GET /api/client/account/api-keys', () => ({ body: { object: 'list', data: [] } }));
};

describe('keyboard: the skip link', () => {
  it('is the first stop of the tab order and moves focus to the page content', async () => {
    serveAccountPages();
    const { user } = renderApp('/account', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Account Overview', level: 1 });
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main-content');
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    // The next Tab goes into the page, past the navigation bar.
    await user.tab();
    expect(main).toContainElement(document.activeElement as HTMLElement);
    expect(screen.getByRole('banner')).not.toContainElement(document.activeElement as HTMLElement);
  });

  it('leaves the URL hash alone (the file manager keeps its directory there)', async () => {
    serveAccountPages();
    const { user, router } = renderApp('/', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.tab();
    await user.keyboard('{Enter}');
    expect(router.state.location.hash).toBe('');
  });

  it('is there on the sign-in pages too', async () => {
    const { user } = renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Login to Continue' });
    await user.tab();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });
});

describe('keyboard: focus after a route change', () => {
  it('moves to the new page heading, not the body', async () => {
    serveAccountPages();
    const { user } = renderApp('/', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    const nav = screen.getByRole('banner');
    await user.click(within(nav).getByRole('link', { name: 'Account' }));
    const heading = await screen.findByRole('heading', { name: 'Account Overview', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());

    const sub = screen.getByRole('navigation', { name: 'Account Overview' });
    within(sub).getByRole('link', { name: 'API Credentials' }).focus();
    await user.keyboard('{Enter}');
    const api = await screen.findByRole('heading', { name: 'Account API', level: 1 });
    await waitFor(() => expect(api).toHaveFocus());
    // Tab goes on from the heading into the page.
    await user.tab();
    expect(screen.getByRole('main')).toContainElement(document.activeElement as HTMLElement);
  });

  it('leaves focus alone on the first page load', async () => {
    serveAccountPages();
    renderApp('/account', { user: pageUser() });
    const heading = await screen.findByRole('heading', { name: 'Account Overview', level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heading).not.toHaveFocus();
    expect(document.body).toHaveFocus();
  });
});
