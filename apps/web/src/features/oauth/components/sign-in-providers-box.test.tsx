import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import type { AccountOAuthLink } from '@aerie/shared/oauth/oauth-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

// Built from local time, so the expected text does not depend on the machine's time zone.
const linkedAt = new Date(2026, 2, 5, 14, 7);

const link = (slug: string, name: string, linked: Partial<AccountOAuthLink> = {}) => ({
  object: 'oauth_link',
  attributes: {
    slug,
    name,
    kind: 'oidc',
    linked: false,
    linked_at: null,
    email: null,
    ...linked,
  } satisfies AccountOAuthLink,
});
const links = (...items: ReturnType<typeof link>[]) => ({ body: { object: 'list', data: items } });
const linkedAcme = link('acme', 'Acme SSO', {
  linked: true,
  linked_at: linkedAt.toISOString(),
  email: 'casey@acme.example',
});

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());

const box = async () =>
  (await screen.findByRole('heading', { name: 'Sign-in Providers' })).parentElement as HTMLElement;

describe('Sign-in Providers box on the account page', () => {
  it('lists each enabled provider: linked with its email and date and Unlink, or Link', async () => {
    server.on('GET /api/client/account/oauth', () =>
      links(linkedAcme, link('github', 'GitHub', { kind: 'github' })),
    );
    renderApp('/account', { user: pageUser() });
    const rows = within(await screen.findByRole('list', { name: 'Your sign-in providers' })).getAllByRole(
      'listitem',
    );
    expect(rows[0]).toHaveTextContent('Acme SSO');
    expect(rows[0]).toHaveTextContent('Linked on: Mar 5th, 2026 14:07 · casey@acme.example');
    expect(
      within(rows[0] as HTMLElement).getByRole('button', { name: 'Unlink Acme SSO' }),
    ).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Not linked');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Link GitHub' })).toHaveAttribute(
      'href',
      '/auth/oauth/github/redirect?link=1',
    );
  });

  it('is not shown while no provider is enabled', async () => {
    server.on('GET /api/client/account/oauth', () => links());
    renderApp('/account', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Account Overview' });
    await waitFor(() =>
      expect(server.requests.map((request) => request.url)).toContain('/api/client/account/oauth'),
    );
    expect(screen.queryByRole('heading', { name: 'Sign-in Providers' })).not.toBeInTheDocument();
  });

  it('asks before unlinking, then shows the provider as not linked', async () => {
    server.on('GET /api/client/account/oauth', () => links(linkedAcme));
    server.on('DELETE /api/client/account/oauth/acme', () => ({ status: 204 }));
    const { user } = renderApp('/account', { user: pageUser() });
    await user.click(await screen.findByRole('button', { name: 'Unlink Acme SSO' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Sign-in Provider' });
    expect(dialog).toHaveTextContent('Unlink Acme SSO? It will no longer sign you in to this account.');
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const panel = await box();
    expect(within(panel).getByText('Acme SSO has been unlinked.')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Link Acme SSO' })).toBeInTheDocument();
    expect(server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });

  it("shows the panel's refusal to unlink the last way in, in the box", async () => {
    server.on('GET /api/client/account/oauth', () => links(linkedAcme));
    server.on('DELETE /api/client/account/oauth/acme', () =>
      errorEnvelope(400, 'DisplayException', oauthMessages.lastWayIn),
    );
    const { user } = renderApp('/account', { user: pageUser() });
    await user.click(await screen.findByRole('button', { name: 'Unlink Acme SSO' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Sign-in Provider' });
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const panel = await box();
    expect(within(panel).getByRole('alert')).toHaveTextContent(`Error${oauthMessages.lastWayIn}`);
    expect(within(panel).getByRole('button', { name: 'Unlink Acme SSO' })).toBeInTheDocument();
  });

  it('explains a failed link (/account?sso_error=…) in the box, once', async () => {
    server.on('GET /api/client/account/oauth', () => links(link('acme', 'Acme SSO')));
    const { router } = renderApp('/account?sso_error=linked_elsewhere', { user: pageUser() });
    const panel = await box();
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      'ErrorThis provider account is already linked to another account.',
    );
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
