import { applicationKeyFormMessages } from '@aerie/shared/api-keys/application-keys-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const keyItem = (identifier: string, memo: string, lastUsedAt: string | null = null) => ({
  object: 'api_key',
  attributes: {
    identifier,
    memo,
    allowed_ips: [],
    r_servers: 1,
    r_nodes: 0,
    r_allocations: 0,
    r_users: 0,
    r_locations: 0,
    r_nests: 0,
    r_eggs: 0,
    r_database_hosts: 0,
    r_server_databases: 0,
    r_mounts: 0,
    r_audit_log: 0,
    last_used_at: lastUsedAt,
    created_at: new Date(2026, 0, 2, 3, 4).toISOString(),
  },
});

const listOf = (...keys: ReturnType<typeof keyItem>[]) => ({ body: { object: 'list', data: keys } });

describe('/admin/api', () => {
  it('lists the keys with description, identifier, last use and creation', async () => {
    panel.on('GET /api/application/api-keys', () =>
      listOf(
        keyItem('ptla_aaaaaaaaaaa', 'Billing', new Date(2026, 2, 5, 14, 7).toISOString()),
        keyItem('ptla_bbbbbbbbbbb', 'Backups'),
      ),
    );
    renderApp('/admin/api', { user: admin });
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Billing');
    expect(rows[1]).toHaveTextContent('ptla_aaaaaaaaaaa');
    expect(rows[1]).toHaveTextContent('Mar 5th, 2026 14:07');
    expect(rows[1]).toHaveTextContent('Jan 2nd, 2026 03:04');
    expect(rows[2]).toHaveTextContent('Never');
  });

  it('revokes a key only once confirmed', async () => {
    panel.on('GET /api/application/api-keys', () =>
      listOf(keyItem('ptla_aaaaaaaaaaa', 'Billing'), keyItem('ptla_bbbbbbbbbbb', 'Backups')),
    );
    panel.on('DELETE /api/application/api-keys/ptla_aaaaaaaaaaa', () => ({ status: 204 }));
    const { user } = renderApp('/admin/api', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Revoke Billing' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke API key' });
    expect(dialog).toHaveTextContent('Requests made with "Billing" will fail from now on.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(panel.requests.filter((request) => request.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Revoke Billing' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke API key' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The key was revoked.')).toBeInTheDocument();
    expect(screen.queryByText('Billing')).not.toBeInTheDocument();
    expect(screen.getByText('Backups')).toBeInTheDocument();
    expect(panel.requests.filter((request) => request.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/application/api-keys/ptla_aaaaaaaaaaa',
    ]);
  });
});

describe('/admin/api/new', () => {
  it('asks for a description before sending', async () => {
    const { user } = renderApp('/admin/api/new', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Create Key' }));
    expect(await screen.findByText(applicationKeyFormMessages.memoRequired)).toBeInTheDocument();
    expect(panel.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('says a key with no access at all can do nothing, before sending', async () => {
    const { user } = renderApp('/admin/api/new', { user: admin });
    await user.type(await screen.findByLabelText('Description'), 'Billing');
    await user.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(
      await screen.findByText(
        'Give the key read or write access to at least one resource: with none it can do nothing.',
      ),
    ).toBeInTheDocument();
    expect(panel.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it("shows the panel's refusal", async () => {
    panel.on('POST /api/application/api-keys', () =>
      errorEnvelope(400, 'DisplayException', 'You have reached the account limit for number of API keys.'),
    );
    const { user } = renderApp('/admin/api/new', { user: admin });
    await user.type(await screen.findByLabelText('Description'), 'Billing');
    await user.selectOptions(screen.getByLabelText('Servers'), 'Read');
    await user.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have reached the account limit for number of API keys.',
    );
  });

  it('creates the key with its permissions and shows it once', async () => {
    panel.on('GET /api/application/api-keys', () => listOf(keyItem('ptla_newkey00001', 'Billing')));
    panel.on('POST /api/application/api-keys', () => ({
      status: 201,
      body: {
        ...keyItem('ptla_newkey00001', 'Billing'),
        meta: { secret_token: 'ptla_newkey00001secretsecret' },
      },
    }));
    const { user } = renderApp('/admin/api/new', { user: admin });
    await user.type(await screen.findByLabelText('Description'), 'Billing');
    await user.type(screen.getByLabelText('Allowed IPs'), '10.0.0.1\n\n192.168.0.0/16');
    // By value: user-event compares an option's innerHTML, where & is &amp;.
    await user.selectOptions(screen.getByLabelText('Servers'), '3');
    await user.selectOptions(screen.getByLabelText('Users'), 'Read');
    await user.click(screen.getByRole('button', { name: 'Create Key' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your API Key' });
    expect(within(dialog).getByText('ptla_newkey00001secretsecret')).toBeInTheDocument();
    expect(panel.requests.find((request) => request.method === 'POST')?.body).toEqual({
      memo: 'Billing',
      allowed_ips: ['10.0.0.1', '192.168.0.0/16'],
      r_servers: 3,
      r_nodes: 0,
      r_allocations: 0,
      r_users: 1,
      r_locations: 0,
      r_nests: 0,
      r_eggs: 0,
      r_database_hosts: 0,
      r_server_databases: 0,
      r_mounts: 0,
      r_audit_log: 0,
    });

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('heading', { name: 'Application API' })).toBeInTheDocument();
    expect(await screen.findByText('ptla_newkey00001')).toBeInTheDocument();
    expect(screen.queryByText('ptla_newkey00001secretsecret')).not.toBeInTheDocument();
  });

  it('offers an admin with a role only the access the role holds, and shows the panel refusing more', async () => {
    panel.on('POST /api/application/api-keys', () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'You cannot grant permissions you do not have.'),
    );
    const { user } = renderApp('/admin/api/new', {
      user: pageUser({
        admin_permissions: ['servers.read', 'servers.write', 'users.read', 'audit_log.read'],
      }),
    });
    const options = (label: string) =>
      within(screen.getByLabelText(label))
        .getAllByRole('option')
        .map((option) => option.textContent);
    expect(
      await screen.findByText('Each resource offers only the access your role holds.'),
    ).toBeInTheDocument();
    expect(options('Servers')).toEqual(['None', 'Read', 'Read & Write']);
    expect(options('Users')).toEqual(['None', 'Read']);
    expect(options('Audit Log')).toEqual(['None', 'Read']);
    expect(options('Nodes')).toEqual(['None']);
    expect(screen.getByLabelText('Nodes')).toBeDisabled();

    await user.type(screen.getByLabelText('Description'), 'Audit export');
    await user.selectOptions(screen.getByLabelText('Audit Log'), 'Read');
    await user.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You cannot grant permissions you do not have.',
    );
    expect(panel.requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      r_audit_log: 1,
    });
  });
});
