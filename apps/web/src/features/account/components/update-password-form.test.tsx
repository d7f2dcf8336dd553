import { accountMessages } from '@aerie/shared/account/account-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { formRequests } from '@/testing/account-page';
import { pageUser, renderApp } from '@/testing/render-app';
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

async function openPanel() {
  const view = renderApp('/account', { user: pageUser() });
  const heading = await screen.findByRole('heading', { name: 'Update Password' });
  const panel = heading.parentElement as HTMLElement;
  const submit = within(panel).getByRole('button', { name: 'Update Password' });
  return { ...view, panel, submit };
}

describe('update password', () => {
  it('shows the three fields, the hint of the new password, and a disabled button while empty', async () => {
    const { panel, submit } = await openPanel();
    expect(within(panel).getByLabelText('Current Password')).toHaveAttribute('type', 'password');
    expect(within(panel).getByLabelText('New Password')).toHaveAccessibleDescription(
      'Your new password should be at least 8 characters in length and unique to this website.',
    );
    expect(within(panel).getByLabelText('Confirm New Password')).toHaveAttribute('type', 'password');
    expect(submit).toBeDisabled();
  });

  it('asks for the current password once the field was left empty', async () => {
    const { panel, user } = await openPanel();
    await user.click(within(panel).getByLabelText('Current Password'));
    await user.tab();
    expect(await within(panel).findByText(accountMessages.currentPasswordRequired)).toBeInTheDocument();
  });

  it('wants a new password of at least 8 characters', async () => {
    const { panel, user } = await openPanel();
    const field = within(panel).getByLabelText('New Password');
    await user.click(field);
    await user.tab();
    expect(await within(panel).findByText(accountMessages.newPasswordRequired)).toBeInTheDocument();
    await user.type(field, 'short');
    expect(await within(panel).findByText(accountMessages.newPasswordMin)).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(accountMessages.newPasswordMin);
  });

  it('refuses a confirmation that differs, and re-checks it when the new password changes', async () => {
    const { panel, user, submit } = await openPanel();
    await user.type(within(panel).getByLabelText('Current Password'), 'old password');
    await user.type(within(panel).getByLabelText('New Password'), 'a long new password');
    await user.type(within(panel).getByLabelText('Confirm New Password'), 'a long new passwor');
    await user.tab();
    expect(await within(panel).findByText(accountMessages.passwordConfirmationMismatch)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(within(panel).getByLabelText('New Password'), '{Backspace}');
    await waitFor(() =>
      expect(within(panel).queryByText(accountMessages.passwordConfirmationMismatch)).not.toBeInTheDocument(),
    );
    expect(submit).toBeEnabled();
  });

  it('sends the passwords, keeps the button busy, then loads the login page', async () => {
    server.on('PUT /api/client/account/password', () => ({ status: 204, delayMs: 300 }));
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { panel, user, submit } = await openPanel();
    await user.type(within(panel).getByLabelText('Current Password'), 'old password');
    await user.type(within(panel).getByLabelText('New Password'), 'a long new password');
    await user.type(within(panel).getByLabelText('Confirm New Password'), 'a long new password');
    expect(submit).toBeEnabled();
    await user.click(submit);

    await waitFor(() => expect(submit).toHaveAttribute('aria-busy', 'true'));
    expect(submit).toBeDisabled();
    await waitFor(() => expect(load).toHaveBeenCalledWith('/auth/login'));
    expect(formRequests(server)).toHaveLength(1);
    expect(formRequests(server)[0]).toMatchObject({
      method: 'PUT',
      url: '/api/client/account/password',
      body: {
        current_password: 'old password',
        password: 'a long new password',
        password_confirmation: 'a long new password',
      },
    });
  });

  it('shows a refused current password in the panel and stays on the page', async () => {
    server.on('PUT /api/client/account/password', () =>
      errorEnvelope(
        400,
        'InvalidPasswordProvidedException',
        'The password provided was invalid for this account.',
      ),
    );
    const load = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { panel, user, submit } = await openPanel();
    await user.type(within(panel).getByLabelText('Current Password'), 'wrong password');
    await user.type(within(panel).getByLabelText('New Password'), 'a long new password');
    await user.type(within(panel).getByLabelText('Confirm New Password'), 'a long new password');
    await user.click(submit);

    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'ErrorThe password provided was invalid for this account.',
    );
    expect(load).not.toHaveBeenCalled();
    expect(submit).toBeEnabled();
  });
});
