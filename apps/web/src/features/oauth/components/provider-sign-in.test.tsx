import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());

const providers = (...list: { slug: string; name: string; kind: string }[]) => ({ body: { data: list } });

describe('identity providers on the login page', () => {
  it('offers a button per enabled provider, each starting its sign-in at the panel', async () => {
    server.on('GET /auth/oauth/providers', () =>
      providers(
        { slug: 'acme-sso', name: 'Acme SSO', kind: 'oidc' },
        { slug: 'discord', name: 'Discord', kind: 'discord' },
      ),
    );
    renderApp('/auth/login');
    const list = await screen.findByRole('list', { name: 'Sign-in providers' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['ASign in with Acme SSO', '/auth/oauth/acme-sso/redirect'],
      ['DSign in with Discord', '/auth/oauth/discord/redirect'],
    ]);
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows no buttons and no divider when no provider is enabled, or the list cannot be read', async () => {
    server.on('GET /auth/oauth/providers', () => providers());
    const { unmount } = renderApp('/auth/login');
    await screen.findByLabelText('Username or Email');
    await waitFor(() =>
      expect(server.requests.map((request) => request.url)).toContain('/auth/oauth/providers'),
    );
    expect(screen.queryByRole('list', { name: 'Sign-in providers' })).not.toBeInTheDocument();
    expect(screen.queryByText('or')).not.toBeInTheDocument();
    unmount();

    server.on('GET /auth/oauth/providers', () =>
      errorEnvelope(500, 'HttpException', errorMessages.serverError),
    );
    renderApp('/auth/login');
    expect(await screen.findByLabelText('Password')).toBeEnabled();
    expect(screen.queryByRole('list', { name: 'Sign-in providers' })).not.toBeInTheDocument();
  });

  it('keeps the password form usable while the list loads', async () => {
    server.on('GET /auth/oauth/providers', () => ({
      delayMs: 300,
      body: { data: [{ slug: 'github', name: 'GitHub', kind: 'github' }] },
    }));
    const { user } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Username or Email'), 'casey');
    expect(screen.getByLabelText('Username or Email')).toHaveValue('casey');
    expect(await screen.findByRole('link', { name: 'Sign in with GitHub' })).toHaveAttribute(
      'href',
      '/auth/oauth/github/redirect',
    );
  });

  it.each([
    ['no_account', 'No account is linked to this sign-in, and this provider may not create one.'],
    [
      'email_taken',
      'An account with this email already exists. Sign in with your password, then link the provider from your account page.',
    ],
    [
      'nonsense',
      'The sign-in through the provider failed. Please try again; if it keeps failing, contact an administrator.',
    ],
  ])('explains ?sso_error=%s in plain words', async (code, text) => {
    server.on('GET /auth/oauth/providers', () => providers());
    renderApp(`/auth/login?sso_error=${code}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error${text}`);
  });

  it('lets a refused password take the place of the provider error', async () => {
    server.on('POST /auth/login', () => errorEnvelope(400, 'DisplayException', errorMessages.loginFailed));
    const { user } = renderApp('/auth/login?sso_error=denied');
    expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in was cancelled at the provider.');
    await user.type(screen.getByLabelText('Username or Email'), 'casey');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(errorMessages.loginFailed));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});

describe('the device checkpoint after a provider sign-in (?sso=1)', () => {
  it("asks the panel for the pending step's token, then sends it with the code", async () => {
    const token = 's'.repeat(64);
    server.on('GET /auth/oauth/checkpoint', () => ({ body: { data: { confirmation_token: token } } }));
    server.on('POST /auth/login/checkpoint', () => ({
      body: { data: { complete: true, intended: '/' } },
    }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { user } = renderApp('/auth/login/checkpoint?sso=1');
    expect(await screen.findByRole('heading', { name: 'Device Checkpoint' })).toBeInTheDocument();
    await user.type(await screen.findByLabelText('Authentication Code'), '654 321');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(load).toHaveBeenCalledWith('/'));
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /auth/oauth/checkpoint',
      'POST /auth/login/checkpoint',
    ]);
    expect(server.requests[1]?.body).toEqual({ confirmation_token: token, authentication_code: '654321' });
  });

  it('shows why when no step is pending, with the way back to the login page', async () => {
    server.on('GET /auth/oauth/checkpoint', () =>
      errorEnvelope(400, 'DisplayException', errorMessages.checkpointExpired),
    );
    const { user, router } = renderApp('/auth/login/checkpoint?sso=1');
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error${errorMessages.checkpointExpired}`);
    expect(screen.queryByLabelText('Authentication Code')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Return to Login' }));
    expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
  });
});
