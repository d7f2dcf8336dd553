import { authMessages } from '@aerie/shared/auth/auth-forms';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recaptchaScriptUrl } from '@/features/auth/hooks/use-recaptcha';
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

/** What the page sent, without its read of the identity providers' buttons. */
const sent = () => server.requests.filter((request) => request.url !== '/auth/oauth/providers');

async function signIn(username: string, password: string) {
  const view = renderApp('/auth/login');
  await view.user.type(await screen.findByLabelText('Username or Email'), username);
  await view.user.type(screen.getByLabelText('Password'), password);
  await view.user.click(screen.getByRole('button', { name: 'Login' }));
  return view;
}

describe('login page', () => {
  it('shows the spec title, fields, button and link', async () => {
    renderApp('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username or Email')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/password');
    expect(document.title).toBe('Login to Continue | Aerie Test');
  });

  it('asks for both fields when submitted empty, without calling the panel', async () => {
    const { user } = renderApp('/auth/login');
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByText(authMessages.usernameRequired)).toBeInTheDocument();
    expect(screen.getByText(authMessages.passwordRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Username or Email')).toHaveAttribute('aria-invalid', 'true');
    expect(sent()).toHaveLength(0);
  });

  it('shows a field error only once that field was touched', async () => {
    const { user } = renderApp('/auth/login');
    await user.click(await screen.findByLabelText('Username or Email'));
    expect(screen.queryByText(authMessages.usernameRequired)).not.toBeInTheDocument();
    await user.tab();
    expect(await screen.findByText(authMessages.usernameRequired)).toBeInTheDocument();
    expect(screen.queryByText(authMessages.passwordRequired)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Username or Email'), 'casey');
    await waitFor(() => expect(screen.queryByText(authMessages.usernameRequired)).not.toBeInTheDocument());
  });

  it('shows the panel refusal as an error flash and stays on the page', async () => {
    server.on('POST /auth/login', () => errorEnvelope(400, 'DisplayException', errorMessages.loginFailed));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    await signIn('casey', 'wrong password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Error${errorMessages.loginFailed}`);
    expect(sent()[0]?.body).toEqual({
      user: 'casey',
      password: 'wrong password',
      'g-recaptcha-response': null,
    });
    expect(screen.getByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it('shows the lockout message of a 429', async () => {
    server.on('POST /auth/login', () =>
      errorEnvelope(429, 'ValidationException', errorMessages.loginLockout(42)),
    );
    await signIn('casey', 'again');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many login attempts. Please try again in 42 seconds.',
    );
  });

  it('refuses an answer that is not an object', async () => {
    server.on('POST /auth/login', () => ({ raw: 'welcome!', contentType: 'text/plain' }));
    await signIn('casey', 'secret');
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.loginNotObject);
  });

  it('spins the button while the panel answers, then loads the intended page in full', async () => {
    server.on('POST /auth/login', () => ({
      delayMs: 150,
      body: { data: { complete: true, intended: '/account' } },
    }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    await signIn('casey', 'secret');
    expect(screen.getByRole('button', { name: 'Login' })).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(load).toHaveBeenCalledWith('/account'));
  });

  it('never follows an intended address on another site', async () => {
    server.on('POST /auth/login', () => ({
      body: { data: { complete: true, intended: '//evil.example/' } },
    }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    await signIn('casey@example.com', 'secret');
    await waitFor(() => expect(load).toHaveBeenCalledWith('/'));
  });

  it('moves to the device checkpoint with the confirmation token when two-factor is on', async () => {
    const token = 'c'.repeat(64);
    server.on('POST /auth/login', () => ({ body: { data: { complete: false, confirmation_token: token } } }));
    server.on('POST /auth/login/checkpoint', () => ({ body: { data: { complete: true, intended: '/' } } }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { user, router } = await signIn('casey', 'secret');

    expect(await screen.findByRole('heading', { name: 'Device Checkpoint' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login/checkpoint');
    await user.type(screen.getByLabelText('Authentication Code'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(load).toHaveBeenCalledWith('/'));
    expect(sent()[1]?.body).toEqual({ confirmation_token: token, authentication_code: '123456' });
  });
});

describe('the intended address (spec §4 Login: "go to the intended address, else /")', () => {
  const signInAt = async (path: string) => {
    const view = renderApp(path);
    await view.user.type(await screen.findByLabelText('Username or Email'), 'casey');
    await view.user.type(screen.getByLabelText('Password'), 'secret');
    await view.user.click(screen.getByRole('button', { name: 'Login' }));
    return view;
  };

  it('sends a signed-out deep link to the login page, and there after signing in', async () => {
    server.on('POST /auth/login', () => ({ body: { data: { complete: true, intended: '/' } } }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { router } = await signInAt('/account/api?page=2#keys');
    expect(router.state.location.pathname).toBe('/auth/login');
    await waitFor(() => expect(load).toHaveBeenCalledWith('/account/api?page=2#keys'));
  });

  it('keeps the address through the device checkpoint, and on the way back to the login form', async () => {
    server.on('POST /auth/login', () => ({
      body: { data: { complete: false, confirmation_token: 'c'.repeat(64) } },
    }));
    server.on('POST /auth/login/checkpoint', () => ({ body: { data: { complete: true, intended: '/' } } }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { user } = await signInAt('/server/abcd1234/files');
    expect(await screen.findByRole('heading', { name: 'Device Checkpoint' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Return to Login' }));
    expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Username or Email'), 'casey');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(await screen.findByLabelText('Authentication Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(load).toHaveBeenCalledWith('/server/abcd1234/files'));
  });

  it('follows an address the panel sent the guest with (/auth/login?redirect=…)', async () => {
    server.on('POST /auth/login', () => ({ body: { data: { complete: true, intended: '/' } } }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    await signInAt(`/auth/login?redirect=${encodeURIComponent('/account/api')}`);
    await waitFor(() => expect(load).toHaveBeenCalledWith('/account/api'));
  });

  it.each([
    '//evil.example/',
    'https://evil.example/account',
    '/\\evil.example',
    '/\t/evil.example',
    '\\evil.example',
    'javascript:alert(1)',
    'account/api',
    '/auth/logout',
  ])('never leaves the panel (or signs out again) for redirect=%j: it goes to /', async (target) => {
    server.on('POST /auth/login', () => ({ body: { data: { complete: true, intended: '/' } } }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    await signInAt(`/auth/login?redirect=${encodeURIComponent(target)}`);
    await waitFor(() => expect(load).toHaveBeenCalledWith('/'));
  });
});

describe('login captcha', () => {
  const captchaScripts = () =>
    [...document.querySelectorAll('script')].filter((s) => s.src.includes('recaptcha'));

  it('does not load Google reCAPTCHA when the panel has it off', async () => {
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Login to Continue' });
    expect(captchaScripts()).toHaveLength(0);
  });

  it('loads the invisible reCAPTCHA script when the panel turns it on', async () => {
    renderApp('/auth/login', { settings: { recaptcha: { enabled: true, siteKey: 'site-key' } } });
    await screen.findByRole('heading', { name: 'Login to Continue' });
    await waitFor(() => expect(captchaScripts().map((s) => s.src)).toEqual([recaptchaScriptUrl]));
  });
});

describe('flashes across sign-in pages', () => {
  it('leaves a failed login message behind when moving to the reset request page', async () => {
    server.on('POST /auth/login', () => errorEnvelope(400, 'DisplayException', errorMessages.loginFailed));
    const { user } = await signIn('casey', 'wrong password');
    await screen.findByRole('alert');
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Request Password Reset' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
