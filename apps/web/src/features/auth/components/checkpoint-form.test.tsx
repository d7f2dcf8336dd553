import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;
const token = 't'.repeat(64);

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());

const openCheckpoint = () => renderApp('/auth/login/checkpoint', { state: { token } });

describe('device checkpoint', () => {
  it('sends a visit without a confirmation token to the login page', async () => {
    const { router } = renderApp('/auth/login/checkpoint');
    expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('asks for an authentication code, with a continue button and a way back to login', async () => {
    openCheckpoint();
    expect(await screen.findByRole('heading', { name: 'Device Checkpoint' })).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication Code')).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Login' })).toHaveAttribute('href', '/auth/login');
  });

  it("switches to a recovery code after I've Lost My Device, and back with I Have My Device", async () => {
    const { user } = openCheckpoint();
    await user.click(await screen.findByRole('button', { name: "I've Lost My Device" }));
    expect(screen.getByLabelText('Recovery Code')).toBeInTheDocument();
    expect(screen.queryByLabelText('Authentication Code')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I Have My Device' }));
    expect(screen.getByLabelText('Authentication Code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "I've Lost My Device" })).toBeInTheDocument();
  });

  it('signs in with a recovery code and loads the intended page', async () => {
    server.on('POST /auth/login/checkpoint', () => ({
      body: { data: { complete: true, intended: '/account' } },
    }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { user } = openCheckpoint();
    await user.click(await screen.findByRole('button', { name: "I've Lost My Device" }));
    await user.type(screen.getByLabelText('Recovery Code'), ' abcd-efgh ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await waitFor(() => expect(load).toHaveBeenCalledWith('/account'));
    expect(server.requests[0]?.body).toEqual({ confirmation_token: token, recovery_token: 'abcd-efgh' });
  });

  it('shows a refused code as an error flash', async () => {
    server.on('POST /auth/login/checkpoint', () =>
      errorEnvelope(400, 'DisplayException', errorMessages.checkpointInvalidCode),
    );
    const { user } = openCheckpoint();
    await user.type(await screen.findByLabelText('Authentication Code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error${errorMessages.checkpointInvalidCode}`);
  });

  it('goes back to the login form through the return link', async () => {
    const { user } = openCheckpoint();
    await user.click(await screen.findByRole('link', { name: 'Return to Login' }));
    expect(await screen.findByRole('heading', { name: 'Login to Continue' })).toBeInTheDocument();
  });
});
