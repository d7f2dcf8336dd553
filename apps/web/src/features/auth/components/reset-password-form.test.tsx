import { authMessages } from '@aerie/shared/auth/auth-forms';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;
const link = '/auth/password/reset/reset-token-123?email=casey%2Bgames%40example.com';

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());

async function submit(password: string, confirmation: string) {
  const view = renderApp(link);
  if (password) await view.user.type(await screen.findByLabelText('New Password'), password);
  if (confirmation) await view.user.type(screen.getByLabelText('Confirm New Password'), confirmation);
  await view.user.click(await screen.findByRole('button', { name: 'Reset Password' }));
  return view;
}

describe('password reset', () => {
  it('shows the email from the link in a disabled field, and the password hint', async () => {
    renderApp(link);
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('casey+games@example.com');
    expect(email).toBeDisabled();
    expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(
      'Passwords must be at least 8 characters in length.',
    );
    expect(screen.getByLabelText('Confirm New Password')).toHaveAttribute('type', 'password');
  });

  it('asks for a new password and its confirmation', async () => {
    await submit('', '');
    expect(await screen.findByText(authMessages.newPasswordRequired)).toBeInTheDocument();
    expect(screen.getByText(authMessages.confirmationMismatch)).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a password under 8 characters', async () => {
    await submit('short', 'short');
    expect(await screen.findByText(authMessages.newPasswordMin)).toBeInTheDocument();
  });

  it('refuses a confirmation that differs', async () => {
    await submit('long enough', 'different one');
    expect(await screen.findByText(authMessages.confirmationMismatch)).toBeInTheDocument();
    expect(screen.queryByText(authMessages.newPasswordMin)).not.toBeInTheDocument();
  });

  it('sends the token, email and passwords, then loads the dashboard', async () => {
    server.on('POST /auth/password/reset', () => ({
      body: { success: true, redirect_to: '/', send_to_login: false },
    }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    await submit('a brand new password', 'a brand new password');
    await waitFor(() => expect(load).toHaveBeenCalledWith('/'));
    expect(server.requests[0]?.body).toEqual({
      email: 'casey+games@example.com',
      token: 'reset-token-123',
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
  });

  it('shows a refused token in an error flash titled Error', async () => {
    server.on('POST /auth/password/reset', () =>
      errorEnvelope(400, 'DisplayException', errorMessages.resetTokenInvalid),
    );
    await submit('a brand new password', 'a brand new password');
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error${errorMessages.resetTokenInvalid}`);
  });
});
