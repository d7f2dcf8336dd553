import { act, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movesProgressBar, wireApiClient } from '@/app/api-wiring';
import { ProgressBar } from '@/components/ui/progress-bar';
import { apiClient, createApiClient } from '@/lib/api-client';
import { useProgressStore } from '@/stores/progress-store';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

// The panel refuses every account route but two-factor's own while it demands two-factor (the account page's
// passkeys and sign-in providers included).
const twoFactorRequired = () =>
  errorEnvelope(
    400,
    'TwoFactorAuthRequiredException',
    'Two-factor authentication is required on this account in order to access this endpoint.',
  );

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/client/permissions': twoFactorRequired,
    'GET /api/client/account/passkeys': twoFactorRequired,
    'GET /api/client/account/oauth': twoFactorRequired,
  });
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});

describe('two-factor enforcement', () => {
  it('sends the user to /account with the two-factor flag when the panel demands two-factor', async () => {
    const { router } = renderApp('/', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    const unwire = wireApiClient(apiClient, {
      navigate: (to, options) => router.navigate(to, options),
      currentPath: () => router.state.location.pathname,
    });

    await apiClient.get('/api/client/permissions').catch(() => undefined);

    expect(await screen.findByRole('heading', { name: 'Account Overview' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('2-Factor Required');
    expect(router.state.location.state).toEqual({ twoFactorRedirect: true });
    unwire();
  });

  it('shows only the 2-Factor Required banner after a page was refused, no "Error" flash beside it', async () => {
    server.on('GET /api/client/account/api-keys', () =>
      errorEnvelope(
        400,
        'TwoFactorAuthRequiredException',
        'Two-factor authentication is required on this account in order to access this endpoint.',
      ),
    );
    const { router } = renderApp('/', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    const unwire = wireApiClient(apiClient, {
      navigate: (to, options) => router.navigate(to, options),
      currentPath: () => router.state.location.pathname,
    });
    await act(() => router.navigate('/account/api'));

    expect(await screen.findByRole('heading', { name: 'Account Overview' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.state).toEqual({ twoFactorRedirect: true }));
    // Give a late flash from the refused page the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toHaveTextContent(
      '2-Factor RequiredYour account must have two-factor authentication enabled in order to continue.',
    );
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
    unwire();
  });

  it('does not navigate again when already on /account', async () => {
    const { router } = renderApp('/account', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Account Overview' });
    const before = router.state.location.key;
    const unwire = wireApiClient(apiClient, {
      navigate: (to, options) => router.navigate(to, options),
      currentPath: () => router.state.location.pathname,
    });
    await apiClient.get('/api/client/permissions').catch(() => undefined);
    await waitFor(() => expect(router.state.location.key).toBe(before));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    unwire();
  });
});

describe('progress bar filter', () => {
  it.each([
    ['/api/client/servers/1a2b3c4d/resources', false],
    ['/api/client/servers/1a2b3c4d/resources?x=1', false],
    ['/_debugbar/open', false],
    ['/api/client/servers/1a2b3c4d', true],
    ['/api/client/resources-list', true],
  ])('%s moves the bar: %s', (url, moves) => {
    expect(movesProgressBar({ method: 'GET', url })).toBe(moves);
  });
});

describe('progress bar wired to the api client', () => {
  it('moves for API calls but not for calls ending in /resources', async () => {
    const server = await startTestServer({
      'GET /api/client/servers/abc/resources': () => ({ delayMs: 50, body: {} }),
      'GET /api/client/account': () => ({ delayMs: 50, body: {} }),
    });
    const client = createApiClient({ baseUrl: server.url });
    const unwire = wireApiClient(client, { navigate: () => undefined, currentPath: () => '/' });
    render(<ProgressBar />);

    const polling = act(() => client.get('/api/client/servers/abc/resources?x=1'));
    expect(useProgressStore.getState().continuous).toBe(false);
    await polling;
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    const account = act(() => client.get('/api/client/account'));
    expect(useProgressStore.getState().continuous).toBe(true);
    await account;
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    unwire();
    await server.close();
  });
});
