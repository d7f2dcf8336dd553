import { authMessages } from '@aerie/shared/auth/auth-forms';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
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

describe('password reset request', () => {
  it('shows the spec title, field hint, button and return link', async () => {
    renderApp('/auth/password');
    expect(await screen.findByRole('heading', { name: 'Request Password Reset' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      'Enter your account email address to receive instructions on resetting your password.',
    );
    expect(screen.getByRole('button', { name: 'Send Email' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Login' })).toHaveAttribute('href', '/auth/login');
  });

  it.each([
    ['empty', ''],
    ['not an address', 'casey@'],
  ])('refuses an email that is %s', async (_label, email) => {
    const { user } = renderApp('/auth/password');
    const field = await screen.findByLabelText('Email');
    if (email) await user.type(field, email);
    await user.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText(authMessages.emailRequired)).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(authMessages.emailRequired);
    expect(server.requests).toHaveLength(0);
  });

  it("shows the panel's answer in a success flash and empties the field", async () => {
    server.on('POST /auth/password', () => ({ body: { status: errorMessages.resetLinkSent } }));
    const { user } = renderApp('/auth/password');
    await user.type(await screen.findByLabelText('Email'), 'casey@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Email' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('SuccessWe have e-mailed your password reset link!');
    expect(alert).toHaveAttribute('data-type', 'success');
    expect(server.requests[0]?.body).toEqual({ email: 'casey@example.com', 'g-recaptcha-response': null });
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue(''));
  });

  it('shows a refusal in an error flash titled Error', async () => {
    server.on('POST /auth/password', () =>
      errorEnvelope(429, 'TooManyRequestsHttpException', 'Too Many Attempts.'),
    );
    const { user } = renderApp('/auth/password');
    await user.type(await screen.findByLabelText('Email'), 'casey@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Email' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ErrorToo Many Attempts.');
    expect(alert).toHaveAttribute('data-type', 'error');
  });
});
