import { accountMessages } from '@aerie/shared/account/account-forms';
import { accountErrorMessages } from '@aerie/shared/account/account-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { useUserStore } from '@/stores/user-store';
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
  const view = renderApp('/account', { user: pageUser({ email: 'casey@example.com' }) });
  const heading = await screen.findByRole('heading', { name: 'Update Email Address' });
  const panel = heading.parentElement as HTMLElement;
  return {
    ...view,
    panel,
    email: within(panel).getByLabelText('Email'),
    password: within(panel).getByLabelText('Confirm Password'),
    submit: within(panel).getByRole('button', { name: 'Update Email' }),
  };
}

describe('update email', () => {
  it('starts with the current address and an empty password', async () => {
    const { email, password } = await openPanel();
    expect(email).toHaveValue('casey@example.com');
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('type', 'password');
  });

  it('wants a valid address and the current password before it sends anything', async () => {
    const { panel, user, email, submit } = await openPanel();
    await user.clear(email);
    await user.type(email, 'not-an-address');
    await user.click(submit);
    expect(await within(panel).findByText(accountMessages.emailInvalid)).toBeInTheDocument();
    expect(within(panel).getByText(accountMessages.emailPasswordRequired)).toBeInTheDocument();

    await user.clear(email);
    expect(await within(panel).findByText(accountMessages.emailInvalid)).toBeInTheDocument();
    expect(formRequests(server)).toHaveLength(0);
  });

  it('sends the address and password, shows the success flash, resets the form and updates the user', async () => {
    server.on('PUT /api/client/account/email', () => ({ status: 204 }));
    const { panel, user, email, password, submit } = await openPanel();
    await user.clear(email);
    await user.type(email, '  new.address@example.com ');
    await user.type(password, 'my password');
    await user.click(submit);

    expect(await within(panel).findByRole('alert')).toHaveTextContent(accountMessages.emailUpdated);
    expect(formRequests(server)[0]).toMatchObject({
      method: 'PUT',
      url: '/api/client/account/email',
      body: { email: 'new.address@example.com', password: 'my password' },
    });
    await waitFor(() => expect(password).toHaveValue(''));
    expect(email).toHaveValue('new.address@example.com');
    expect(useUserStore.getState().user?.email).toBe('new.address@example.com');
    // The reset form shows no errors, although its password is empty again.
    expect(within(panel).queryByText(accountMessages.emailPasswordRequired)).not.toBeInTheDocument();
  });

  it('shows a refused password as an error and keeps the stored address', async () => {
    server.on('PUT /api/client/account/email', () =>
      errorEnvelope(400, 'InvalidPasswordProvidedException', accountErrorMessages.invalidPassword),
    );
    const { panel, user, email, password, submit } = await openPanel();
    await user.clear(email);
    await user.type(email, 'other@example.com');
    await user.type(password, 'wrong password');
    await user.click(submit);

    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      `Error${accountErrorMessages.invalidPassword}`,
    );
    expect(useUserStore.getState().user?.email).toBe('casey@example.com');
    expect(password).toHaveValue('wrong password');
  });
});
