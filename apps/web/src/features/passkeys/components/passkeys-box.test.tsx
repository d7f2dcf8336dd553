import { passkeyFormMessages } from '@aerie/shared/passkeys/passkeys-forms';
import type { PasskeyItem } from '@aerie/shared/passkeys/passkeys-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

// Built from local time, so the expected text does not depend on the machine's time zone.
const addedAt = new Date(2026, 2, 5, 14, 7);

const passkey = (id: number, name: string, lastUsed: Date | null = null, synced = false): PasskeyItem => ({
  object: 'passkey',
  attributes: {
    id,
    name,
    synced,
    created_at: addedAt.toISOString(),
    last_used_at: lastUsed ? lastUsed.toISOString() : null,
  },
});
const listOf = (...items: PasskeyItem[]) => ({ body: { object: 'list', data: items } });

const sent = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.url === path).map((r) => r.body);

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());
afterEach(() => {
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
});

const box = async () =>
  (await screen.findByRole('heading', { name: 'Passkeys' })).parentElement as HTMLElement;

describe('Passkeys box on the account page', () => {
  it('lists each passkey with its dates and a synced badge', async () => {
    server.on('GET /api/client/account/passkeys', () =>
      listOf(passkey(1, 'Laptop', new Date(2026, 3, 1, 8, 0), true), passkey(2, 'YubiKey')),
    );
    renderApp('/account', { user: pageUser() });
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('LaptopSynced');
    expect(rows[0]).toHaveTextContent('Added on: Mar 5th, 2026 14:07 · Last used: Apr 1st, 2026 08:00');
    expect(rows[1]).toHaveTextContent('YubiKey');
    expect(rows[1]).toHaveTextContent('Never used');
  });

  it('says so when there are none, and that this browser cannot make one', async () => {
    server.on('GET /api/client/account/passkeys', () => listOf());
    renderApp('/account', { user: pageUser() });
    const panel = await box();
    expect(await within(panel).findByText('No passkeys exist for this account.')).toBeInTheDocument();
    expect(within(panel).getByText('This browser cannot create passkeys.')).toBeInTheDocument();
  });

  it('checks the name and password before asking the panel', async () => {
    (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {};
    server.on('GET /api/client/account/passkeys', () => listOf());
    const { user } = renderApp('/account', { user: pageUser() });
    const panel = await box();
    await user.click(await within(panel).findByRole('button', { name: 'Add Passkey' }));
    expect(await within(panel).findByText(passkeyFormMessages.nameRequired)).toBeInTheDocument();
    expect(within(panel).getByText(passkeyFormMessages.passwordRequired)).toBeInTheDocument();
    expect(sent('POST', '/api/client/account/passkeys/options')).toHaveLength(0);
  });

  it('shows the panel’s refusal of the password in the box', async () => {
    (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {};
    server.on('GET /api/client/account/passkeys', () => listOf());
    server.on('POST /api/client/account/passkeys/options', () =>
      errorEnvelope(400, 'BadRequestHttpException', 'The password provided was invalid for this account.'),
    );
    const { user } = renderApp('/account', { user: pageUser() });
    const panel = await box();
    await user.type(within(panel).getByLabelText('Passkey Name'), 'Phone');
    await user.type(within(panel).getByLabelText('Current Password'), 'wrong');
    await user.click(within(panel).getByRole('button', { name: 'Add Passkey' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'The password provided was invalid for this account.',
    );
    expect(sent('POST', '/api/client/account/passkeys/options')).toEqual([{ password: 'wrong' }]);
    expect(within(panel).getByLabelText('Current Password')).toHaveValue('');
  });

  it('renames a passkey', async () => {
    server.on('GET /api/client/account/passkeys', () => listOf(passkey(7, 'Laptop')));
    server.on('PATCH /api/client/account/passkeys/7', () => ({ body: passkey(7, 'Work laptop') }));
    const { user } = renderApp('/account', { user: pageUser() });
    await user.click(await screen.findByRole('button', { name: 'Rename passkey Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Passkey' });
    const name = within(dialog).getByLabelText('Passkey Name');
    expect(name).toHaveValue('Laptop');
    await user.clear(name);
    await user.type(name, 'Work laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent('PATCH', '/api/client/account/passkeys/7')).toEqual([{ name: 'Work laptop' }]);
    expect(within(await box()).getByText('Work laptop')).toBeInTheDocument();
  });

  it('asks before removing, then drops the passkey from the list', async () => {
    server.on('GET /api/client/account/passkeys', () => listOf(passkey(3, 'Laptop'), passkey(4, 'Phone')));
    server.on('DELETE /api/client/account/passkeys/3', () => ({ status: 204 }));
    const { user } = renderApp('/account', { user: pageUser() });
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Passkey' });
    expect(dialog).toHaveTextContent('Remove the passkey Laptop? It will no longer sign you in.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const rows = within(await screen.findByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Phone');
    expect(sent('DELETE', '/api/client/account/passkeys/3')).toHaveLength(1);
  });
});
