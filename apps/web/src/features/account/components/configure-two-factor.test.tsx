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
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const uri = `otpauth://totp/Aerie:casey%40example.com?secret=${secret}&issuer=Aerie`;
const tokens = Array.from({ length: 10 }, (_, i) => `rc${i}abcdefg`);

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => {
  server.reset();
  server.on('GET /api/client/account/two-factor', () => ({
    body: { data: { image_url_data: uri, secret } },
  }));
});

/** Waits longer than the 150 ms fade, then checks the dialog is still there. */
const stillOpen = async (name: string) => {
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(screen.getByRole('dialog', { name })).toBeInTheDocument();
};

async function openSetup() {
  const view = renderApp('/account', { user: pageUser() });
  await view.user.click(await screen.findByRole('button', { name: 'Enable Two-Factor' }));
  const dialog = await screen.findByRole('dialog', { name: 'Enable Two-Factor Authentication' });
  return { ...view, dialog };
}

async function enable(view: Awaited<ReturnType<typeof openSetup>>) {
  server.on('POST /api/client/account/two-factor', () => ({
    body: { object: 'recovery_tokens', attributes: { tokens } },
  }));
  await view.user.type(await within(view.dialog).findByLabelText('Authenticator Code'), '123456');
  await view.user.type(within(view.dialog).getByLabelText('Account Password'), 'my password');
  await view.user.click(within(view.dialog).getByRole('button', { name: 'Enable' }));
  return await screen.findByRole('dialog', { name: 'Two-Factor Authentication Enabled' });
}

describe('two-factor setup', () => {
  it('says two-factor is off and shows the QR code of the otpauth URI and the secret in text', async () => {
    const { user } = renderApp('/account', { user: pageUser() });
    expect(
      await screen.findByText(
        'You do not currently have two-factor authentication enabled on your account. Click the button below to begin configuring it.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enable Two-Factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable Two-Factor Authentication' });
    expect(await within(dialog).findByText(secret)).toBeInTheDocument();
    const qr = await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' });
    const svg = decodeURIComponent((qr.getAttribute('src') ?? '').replace('data:image/svg+xml;utf8,', ''));
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(formRequests(server).map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/client/account/two-factor',
    ]);
  });

  it('asks for a 6-digit code and the password', async () => {
    const { dialog, user } = await openSetup();
    await user.click(await within(dialog).findByRole('button', { name: 'Enable' }));
    expect(await within(dialog).findByText(accountMessages.twoFactorCodeRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(accountMessages.twoFactorPasswordRequired)).toBeInTheDocument();

    const code = within(dialog).getByLabelText('Authenticator Code');
    await user.type(code, '12345');
    expect(await within(dialog).findByText(accountMessages.twoFactorCodeDigits)).toBeInTheDocument();
    await user.type(code, 'a');
    expect(within(dialog).getByText(accountMessages.twoFactorCodeDigits)).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '1234567');
    expect(within(dialog).getByText(accountMessages.twoFactorCodeDigits)).toBeInTheDocument();
    expect(formRequests(server).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('shows a refused code in the modal and keeps it open', async () => {
    server.on('POST /api/client/account/two-factor', () =>
      errorEnvelope(400, 'TwoFactorAuthenticationTokenInvalid', accountErrorMessages.twoFactorTokenInvalid),
    );
    const { dialog, user } = await openSetup();
    await user.type(await within(dialog).findByLabelText('Authenticator Code'), '000000');
    await user.type(within(dialog).getByLabelText('Account Password'), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Enable' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Error${accountErrorMessages.twoFactorTokenInvalid}`,
    );
    expect(useUserStore.getState().user?.useTotp).toBe(false);
  });

  it('explains a setup the panel refuses', async () => {
    server.on('GET /api/client/account/two-factor', () =>
      errorEnvelope(400, 'BadRequestHttpException', accountErrorMessages.twoFactorAlreadyEnabled),
    );
    const { dialog } = await openSetup();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      accountErrorMessages.twoFactorAlreadyEnabled,
    );
    expect(within(dialog).queryByLabelText('Authenticator Code')).not.toBeInTheDocument();
  });

  it('sends code and password, then shows the recovery codes that only the Close button dismisses', async () => {
    const view = await openSetup();
    const codes = await enable(view);
    expect(formRequests(server).at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/client/account/two-factor',
      body: { code: '123456', password: 'my password' },
    });
    for (const token of tokens) expect(within(codes).getByText(token)).toBeInTheDocument();
    expect(within(codes).getByText('These codes will not be displayed again.')).toBeInTheDocument();
    expect(within(codes).queryByLabelText('Close')).not.toBeInTheDocument();

    await view.user.keyboard('{Escape}');
    await view.user.click(screen.getByTestId('modal-backdrop'));
    await stillOpen('Two-Factor Authentication Enabled');
    // Two-factor counts as on only once the codes were dismissed.
    expect(useUserStore.getState().user?.useTotp).toBe(false);

    await view.user.click(within(codes).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(useUserStore.getState().user?.useTotp).toBe(true);
    expect(
      screen.getByText('Two-factor authentication is currently enabled on your account.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable Two-Factor' })).toBeInTheDocument();
  });

  it('asks for a new secret each time the setup opens again', async () => {
    const { dialog, user } = await openSetup();
    await within(dialog).findByText(secret);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Enable Two-Factor' }));
    await screen.findByRole('dialog', { name: 'Enable Two-Factor Authentication' });
    await waitFor(() =>
      expect(formRequests(server).filter((r) => r.url === '/api/client/account/two-factor')).toHaveLength(2),
    );
  });
});

describe('two-factor removal', () => {
  async function openDisable() {
    const view = renderApp('/account', { user: pageUser({ use_totp: true }) });
    await view.user.click(await screen.findByRole('button', { name: 'Disable Two-Factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable Two-Factor Authentication' });
    return { ...view, dialog };
  }

  it('asks for the current password', async () => {
    const { dialog, user } = await openDisable();
    await user.click(within(dialog).getByRole('button', { name: 'Disable Two-Factor' }));
    expect(await within(dialog).findByText(accountMessages.twoFactorPasswordRequired)).toBeInTheDocument();
    expect(formRequests(server)).toHaveLength(0);
  });

  it('shows a refused password and leaves two-factor on', async () => {
    server.on('DELETE /api/client/account/two-factor', () =>
      errorEnvelope(400, 'BadRequestHttpException', accountErrorMessages.twoFactorPasswordInvalid),
    );
    const { dialog, user } = await openDisable();
    await user.type(within(dialog).getByLabelText('Current Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Disable Two-Factor' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      accountErrorMessages.twoFactorPasswordInvalid,
    );
    expect(useUserStore.getState().user?.useTotp).toBe(true);
  });

  it('sends the password in the query string, closes, and turns the panel back to Enable', async () => {
    server.on('DELETE /api/client/account/two-factor', () => ({ status: 204 }));
    const { dialog, user } = await openDisable();
    await user.type(within(dialog).getByLabelText('Current Password'), 'my pass&word');
    await user.click(within(dialog).getByRole('button', { name: 'Disable Two-Factor' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(formRequests(server)[0]).toMatchObject({
      method: 'DELETE',
      url: '/api/client/account/two-factor?password=my+pass%26word',
    });
    expect(useUserStore.getState().user?.useTotp).toBe(false);
    expect(screen.getByRole('button', { name: 'Enable Two-Factor' })).toBeInTheDocument();
  });
});
