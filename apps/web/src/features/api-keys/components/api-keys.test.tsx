import { apiKeyMessages } from '@aerie/shared/api-keys/api-keys-forms';
import { type ApiKeyItem, apiKeyErrorMessages } from '@aerie/shared/api-keys/api-keys-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

// Built from local time, so the expected text does not depend on the machine's time zone.
const usedAt = new Date(2026, 2, 5, 14, 7);

const apiKey = (identifier: string, description: string, lastUsedAt: Date | null): ApiKeyItem => ({
  object: 'api_key',
  attributes: {
    identifier,
    description,
    allowed_ips: [],
    last_used_at: lastUsedAt ? lastUsedAt.toISOString() : null,
    created_at: '2026-01-02T03:04:05+00:00',
  },
});

const listOf = (...keys: ApiKeyItem[]) => ({ body: { object: 'list', data: keys } });

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());

const panel = async (title: string) =>
  (await screen.findByRole('heading', { name: title })).parentElement as HTMLElement;

/** Tailwind's display utilities: one of them beside `hidden` on the same element can win over it. */
const displayUtilities = [
  'block',
  'inline',
  'inline-block',
  'flex',
  'inline-flex',
  'grid',
  'inline-grid',
  'table',
];

describe('API key list', () => {
  it('lays a row out for phones: the identifier only from md up, the description wrapping between words', async () => {
    server.on('GET /api/client/account/api-keys', () =>
      listOf(apiKey('ptlc_aaaaaaaaaaa', 'Deploy bot for the production cluster', usedAt)),
    );
    renderApp('/account/api', { user: pageUser() });
    const list = await panel('API Keys');
    const [row] = await within(list).findAllByRole('listitem');
    const identifier = within(row as HTMLElement).getByText('ptlc_aaaaaaaaaaa');
    // Below md the identifier's box is display:none, and nothing on that box turns it back on.
    const hidden = identifier.closest('.hidden') as HTMLElement | null;
    expect(hidden).not.toBeNull();
    expect(row).toContainElement(hidden);
    expect([...(hidden as HTMLElement).classList].filter((name) => displayUtilities.includes(name))).toEqual(
      [],
    );
    expect(hidden).toHaveClass('md:block');
    // The description takes the row's free width and wraps at spaces, never inside a word.
    const description = within(row as HTMLElement).getByText('Deploy bot for the production cluster');
    expect(description).not.toHaveClass('break-all');
    expect(description.parentElement).toHaveClass('min-w-0', 'flex-1');
  });

  it('says Loading... until the keys arrive, then shows description, last use and identifier', async () => {
    server.on('GET /api/client/account/api-keys', () => ({
      ...listOf(
        apiKey('ptlc_aaaaaaaaaaa', 'Deploy bot', usedAt),
        apiKey('ptlc_bbbbbbbbbbb', 'Backup script', null),
      ),
      delayMs: 300,
    }));
    renderApp('/account/api', { user: pageUser() });
    const list = await panel('API Keys');
    expect(within(list).getByText('Loading...')).toBeInTheDocument();

    const rows = await within(list).findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Deploy bot');
    expect(rows[0]).toHaveTextContent('Last used: Mar 5th, 2026 14:07');
    expect(rows[0]).toHaveTextContent('ptlc_aaaaaaaaaaa');
    expect(rows[1]).toHaveTextContent('Backup script');
    expect(rows[1]).toHaveTextContent('Last used: Never');
    expect(within(list).queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('says when the account has no keys', async () => {
    server.on('GET /api/client/account/api-keys', () => listOf());
    renderApp('/account/api', { user: pageUser() });
    expect(
      await within(await panel('API Keys')).findByText('No API keys exist for this account.'),
    ).toBeInTheDocument();
  });

  it('shows a failed load as an error flash on the page', async () => {
    server.on('GET /api/client/account/api-keys', () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'Nope.'),
    );
    renderApp('/account/api', { user: pageUser() });
    expect(await screen.findByRole('alert')).toHaveTextContent('ErrorNope.');
  });
});

describe('API key deletion', () => {
  async function askToDelete() {
    server.on('GET /api/client/account/api-keys', () =>
      listOf(
        apiKey('ptlc_aaaaaaaaaaa', 'Deploy bot', null),
        apiKey('ptlc_bbbbbbbbbbb', 'Backup script', null),
      ),
    );
    const view = renderApp('/account/api', { user: pageUser() });
    await view.user.click(await screen.findByRole('button', { name: 'Delete API key Deploy bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm key deletion' });
    return { ...view, dialog };
  }

  it('asks first, with the spec text, and Cancel keeps the key', async () => {
    const { dialog, user } = await askToDelete();
    expect(dialog).toHaveTextContent(
      'Are you sure you wish to delete this API key? All requests using it will immediately be invalidated and will fail.',
    );
    expect(within(dialog).getByRole('button', { name: 'Yes, delete key' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByText('Deploy bot')).toBeInTheDocument();
  });

  it('deletes the key once confirmed and removes it from the list', async () => {
    server.on('DELETE /api/client/account/api-keys/ptlc_aaaaaaaaaaa', () => ({ status: 204, delayMs: 200 }));
    const { dialog, user } = await askToDelete();
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete key' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Loading');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('Deploy bot')).not.toBeInTheDocument();
    expect(screen.getByText('Backup script')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/client/account/api-keys/ptlc_aaaaaaaaaaa',
    ]);
  });

  it('keeps the key and shows the error when the panel refuses', async () => {
    const { dialog, user } = await askToDelete();
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The requested resource could not be found on the server.',
    );
    expect(screen.getByText('Deploy bot')).toBeInTheDocument();
  });
});

describe('API key creation', () => {
  beforeEach(() => {
    server.on('GET /api/client/account/api-keys', () => listOf());
  });

  async function fill(description: string, ips = '') {
    const view = renderApp('/account/api', { user: pageUser() });
    const form = await panel('Create API Key');
    if (description) await view.user.type(within(form).getByLabelText('Description'), description);
    if (ips) await view.user.type(within(form).getByLabelText('Allowed IPs'), ips);
    await view.user.click(within(form).getByRole('button', { name: 'Create' }));
    return { ...view, form };
  }

  it('shows the hints of both fields', async () => {
    renderApp('/account/api', { user: pageUser() });
    const form = await panel('Create API Key');
    expect(within(form).getByLabelText('Description')).toHaveAccessibleDescription(
      'A description of this API key.',
    );
    expect(within(form).getByLabelText('Allowed IPs')).toHaveAccessibleDescription(
      'Leave blank to allow any IP address to use this API key, otherwise provide each IP address on a new line.',
    );
  });

  it('wants a description of at least 4 characters', async () => {
    const { form, user } = await fill('');
    expect(await within(form).findByText(apiKeyMessages.descriptionRequired)).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Description'), 'abc');
    expect(await within(form).findByText(apiKeyMessages.descriptionMin)).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Description'), 'd');
    await waitFor(() =>
      expect(within(form).queryByText(apiKeyMessages.descriptionMin)).not.toBeInTheDocument(),
    );
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends an empty address list when Allowed IPs is blank', async () => {
    server.on('POST /api/client/account/api-keys', () =>
      errorEnvelope(400, 'DisplayException', apiKeyErrorMessages.apiKeyLimit),
    );
    await fill('Deploy bot');
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error${apiKeyErrorMessages.apiKeyLimit}`);
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      description: 'Deploy bot',
      allowed_ips: [],
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('sends one address per line, shows the key once in a modal only its Close button ends, and lists it', async () => {
    server.on('POST /api/client/account/api-keys', () => ({
      body: {
        ...apiKey('ptlc_ccccccccccc', 'Deploy bot', null),
        meta: { secret_token: 'S'.repeat(32) },
      },
    }));
    const { form, user } = await fill('Deploy bot', '10.0.0.1{Enter}{Enter}  192.168.1.0/24  {Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Your API Key' });
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      description: 'Deploy bot',
      allowed_ips: ['10.0.0.1', '192.168.1.0/24'],
    });
    expect(within(dialog).getByText(`ptlc_ccccccccccc${'S'.repeat(32)}`)).toBeInTheDocument();
    expect(dialog).toHaveTextContent('it will not be shown again');
    expect(within(dialog).queryByLabelText('Close')).not.toBeInTheDocument();

    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('modal-backdrop'));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(screen.getByRole('dialog', { name: 'Your API Key' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const rows = within(await panel('API Keys')).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Deploy bot');
    expect(within(form).getByLabelText('Description')).toHaveValue('');
    expect(within(form).getByLabelText('Allowed IPs')).toHaveValue('');
  });
});
