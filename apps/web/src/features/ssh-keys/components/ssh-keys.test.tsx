import { sshKeyFormMessages } from '@aerie/shared/ssh-keys/ssh-keys-forms';
import { type SshKeyItem, sshKeyMessages } from '@aerie/shared/ssh-keys/ssh-keys-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

// Built from local time, so the expected text does not depend on the machine's time zone.
const addedAt = new Date(2026, 2, 5, 14, 7);

const laptopFingerprint = 'nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8';
const desktopFingerprint = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
const edKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl casey@laptop';

const sshKey = (name: string, fingerprint: string, createdAt = addedAt): SshKeyItem => ({
  object: 'ssh_key',
  attributes: {
    name,
    fingerprint,
    public_key:
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA4yqqeRXOubRJ0bpQ6iooux6A+QvaJFotHYdpfRiiZQ==\n-----END PUBLIC KEY-----\n',
    created_at: createdAt.toISOString(),
  },
});

const listOf = (...keys: SshKeyItem[]) => ({ body: { object: 'list', data: keys } });

const posts = (path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.url === path).map((r) => r.body);

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

describe('SSH Keys page', () => {
  it('has its title, both panels and the SSH Keys tab marked as the current page', async () => {
    server.on('GET /api/client/account/ssh-keys', () => listOf());
    renderApp('/account/ssh', { user: pageUser() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Account SSH' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Add SSH Key' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'SSH Keys' })).toBeInTheDocument();
    const sub = screen.getByRole('navigation', { name: 'Account Overview' });
    expect(within(sub).getByRole('link', { name: 'SSH Keys' })).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Account SSH | Aerie Test');
  });
});

describe('SSH key list', () => {
  it('says Loading... until the keys arrive, then shows name, SHA256 fingerprint and date added', async () => {
    server.on('GET /api/client/account/ssh-keys', () => ({
      ...listOf(
        sshKey('Laptop', laptopFingerprint),
        sshKey('Desktop', desktopFingerprint, new Date(2025, 11, 1, 9, 30)),
      ),
      delayMs: 300,
    }));
    renderApp('/account/ssh', { user: pageUser() });
    const list = await panel('SSH Keys');
    expect(within(list).getByText('Loading...')).toBeInTheDocument();

    const rows = await within(list).findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Laptop');
    expect(within(rows[0] as HTMLElement).getByText(`SHA256:${laptopFingerprint}`)).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Added on: Mar 5th, 2026 14:07');
    expect(rows[1]).toHaveTextContent('Desktop');
    expect(within(rows[1] as HTMLElement).getByText(`SHA256:${desktopFingerprint}`)).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Added on: Dec 1st, 2025 09:30');
    expect(within(list).queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('says when the account has no keys', async () => {
    server.on('GET /api/client/account/ssh-keys', () => listOf());
    renderApp('/account/ssh', { user: pageUser() });
    const list = await panel('SSH Keys');
    expect(await within(list).findByText('No SSH Keys exist for this account.')).toBeInTheDocument();
    expect(within(list).queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('shows a failed load as an error flash on the page', async () => {
    server.on('GET /api/client/account/ssh-keys', () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'Nope.'),
    );
    renderApp('/account/ssh', { user: pageUser() });
    expect(await screen.findByRole('alert')).toHaveTextContent('ErrorNope.');
  });
});

describe('SSH key creation', () => {
  beforeEach(() => {
    server.on('GET /api/client/account/ssh-keys', () => listOf());
  });

  async function fill(name: string, publicKey: string) {
    const view = renderApp('/account/ssh', { user: pageUser() });
    const form = await panel('Add SSH Key');
    // The empty text says the list has loaded, so a key added later is appended to a loaded list.
    await screen.findByText('No SSH Keys exist for this account.');
    if (name) await view.user.type(within(form).getByLabelText('SSH Key Name'), name);
    if (publicKey) {
      await view.user.click(within(form).getByLabelText('Public Key'));
      await view.user.paste(publicKey);
    }
    await view.user.click(within(form).getByRole('button', { name: 'Save' }));
    return { ...view, form };
  }

  it('shows the public key hint', async () => {
    renderApp('/account/ssh', { user: pageUser() });
    const form = await panel('Add SSH Key');
    expect(within(form).getByLabelText('Public Key')).toHaveAccessibleDescription(
      'Enter your public SSH key.',
    );
  });

  it('wants a name and a public key before sending anything', async () => {
    const { form, user } = await fill('', '');
    expect(await within(form).findByText(sshKeyFormMessages.nameRequired)).toBeInTheDocument();
    expect(within(form).getByText(sshKeyFormMessages.publicKeyRequired)).toBeInTheDocument();
    expect(within(form).getByLabelText('SSH Key Name')).toHaveAttribute('aria-invalid', 'true');

    // Blank text counts as missing.
    await user.type(within(form).getByLabelText('SSH Key Name'), '   ');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(sshKeyFormMessages.nameRequired)).toBeInTheDocument();

    await user.type(within(form).getByLabelText('SSH Key Name'), 'Laptop');
    await waitFor(() =>
      expect(within(form).queryByText(sshKeyFormMessages.nameRequired)).not.toBeInTheDocument(),
    );
    expect(within(form).getByText(sshKeyFormMessages.publicKeyRequired)).toBeInTheDocument();
    expect(posts('/api/client/account/ssh-keys')).toHaveLength(0);
  });

  it('posts the name and public key, lists the key it gets back and empties the form', async () => {
    server.on('POST /api/client/account/ssh-keys', () => ({
      body: sshKey('Laptop', laptopFingerprint),
      delayMs: 100,
    }));
    const { form } = await fill('Laptop', `${edKey}\n`);
    const list = await panel('SSH Keys');
    const row = await within(list).findByRole('listitem');
    expect(posts('/api/client/account/ssh-keys')).toEqual([{ name: 'Laptop', public_key: edKey }]);
    expect(row).toHaveTextContent('Laptop');
    expect(within(row).getByText(`SHA256:${laptopFingerprint}`)).toBeInTheDocument();
    expect(within(list).queryByText('No SSH Keys exist for this account.')).not.toBeInTheDocument();
    await waitFor(() => expect(within(form).getByLabelText('SSH Key Name')).toHaveValue(''));
    expect(within(form).getByLabelText('Public Key')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The list came from the answer, not from another GET.
    expect(
      server.requests.filter((r) => r.method === 'GET' && r.url === '/api/client/account/ssh-keys'),
    ).toHaveLength(1);
  });

  it.each([sshKeyMessages.invalid, sshKeyMessages.dsa, sshKeyMessages.weakRsa, sshKeyMessages.duplicate])(
    'shows the panel refusing the key: %s',
    async (detail) => {
      server.on('POST /api/client/account/ssh-keys', () => ({
        status: 422,
        body: {
          errors: [
            {
              code: 'ValidationException',
              status: '422',
              detail,
              meta: { source_field: 'public_key', rule: '' },
            },
          ],
        },
      }));
      const { form } = await fill('Laptop', edKey);
      expect(await screen.findByRole('alert')).toHaveTextContent(`Error${detail}`);
      // The form keeps what was typed, so the user can correct it.
      expect(within(form).getByLabelText('SSH Key Name')).toHaveValue('Laptop');
      expect(within(form).getByLabelText('Public Key')).toHaveValue(edKey);
      expect(within(await panel('SSH Keys')).queryByRole('listitem')).not.toBeInTheDocument();
    },
  );

  it('clears the last error when the next attempt succeeds', async () => {
    let calls = 0;
    server.on('POST /api/client/account/ssh-keys', () =>
      ++calls === 1
        ? { ...errorEnvelope(422, 'ValidationException', sshKeyMessages.duplicate) }
        : { body: sshKey('Laptop', laptopFingerprint) },
    );
    const { form, user } = await fill('Laptop', edKey);
    expect(await screen.findByRole('alert')).toHaveTextContent(sshKeyMessages.duplicate);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(await panel('SSH Keys')).findByRole('listitem')).toHaveTextContent('Laptop');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('SSH key removal', () => {
  async function askToDelete() {
    server.on('GET /api/client/account/ssh-keys', () =>
      listOf(sshKey('Laptop', laptopFingerprint), sshKey('Desktop', desktopFingerprint)),
    );
    const view = renderApp('/account/ssh', { user: pageUser() });
    await view.user.click(await screen.findByRole('button', { name: 'Delete SSH key Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete SSH Key' });
    return { ...view, dialog };
  }

  it('asks first, naming the key, and Cancel keeps it', async () => {
    const { dialog, user } = await askToDelete();
    expect(dialog).toHaveTextContent(
      'Removing the Laptop SSH key will invalidate its usage across the Panel.',
    );
    expect(within(dialog).getByText('Laptop').tagName).toBe('CODE');
    expect(within(dialog).getByRole('button', { name: 'Delete Key' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts('/api/client/account/ssh-keys/remove')).toHaveLength(0);
    expect(screen.getByText('Laptop')).toBeInTheDocument();
  });

  it('shows a name with markup in it as text in the question', async () => {
    const name = '<b>Work</b> & <code>co</code>';
    server.on('GET /api/client/account/ssh-keys', () => listOf(sshKey(name, laptopFingerprint)));
    const { user } = renderApp('/account/ssh', { user: pageUser() });
    await user.click(await screen.findByRole('button', { name: `Delete SSH key ${name}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete SSH Key' });
    expect(dialog).toHaveTextContent(
      `Removing the ${name} SSH key will invalidate its usage across the Panel.`,
    );
    expect(dialog.querySelector('b')).toBeNull();
  });

  it('removes the key by its fingerprint once confirmed, and drops it from the list after the 204', async () => {
    server.on('POST /api/client/account/ssh-keys/remove', () => ({ status: 204, delayMs: 200 }));
    const { dialog, user } = await askToDelete();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Key' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Loading');
    // Still listed while the panel has not answered.
    const list = await panel('SSH Keys');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Desktop');
    expect(screen.queryByText('Laptop')).not.toBeInTheDocument();
    expect(posts('/api/client/account/ssh-keys/remove')).toEqual([{ fingerprint: laptopFingerprint }]);
  });

  it('shows the empty text once the last key is removed', async () => {
    server.on('GET /api/client/account/ssh-keys', () => listOf(sshKey('Laptop', laptopFingerprint)));
    server.on('POST /api/client/account/ssh-keys/remove', () => ({ status: 204 }));
    const { user } = renderApp('/account/ssh', { user: pageUser() });
    await user.click(await screen.findByRole('button', { name: 'Delete SSH key Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete SSH Key' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Key' }));
    expect(await screen.findByText('No SSH Keys exist for this account.')).toBeInTheDocument();
  });

  it('keeps the key and shows the error when the panel refuses', async () => {
    server.on('POST /api/client/account/ssh-keys/remove', () =>
      errorEnvelope(
        500,
        'HttpException',
        'An unexpected error was encountered while processing this request, please try again.',
      ),
    );
    const { dialog, user } = await askToDelete();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error was encountered');
    expect(screen.getByText('Laptop')).toBeInTheDocument();
  });
});
