import { adminRoleMessages } from '@aerie/shared/admin-roles/admin-roles-bodies';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const roleItem = (id: number, name: string, permissions: string[], description: string | null = null) => ({
  object: 'admin_role',
  attributes: {
    id,
    name,
    description,
    permissions,
    created_at: '2026-01-02T03:04:05+00:00',
    updated_at: '2026-01-02T03:04:05+00:00',
  },
});

const listOf = (...items: ReturnType<typeof roleItem>[]) => ({
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

const support = roleItem(1, 'Support', ['servers.read', 'users.read', 'users.write'], 'Helps players');
const auditor = roleItem(2, 'Auditor', ['audit_log.read']);

const requests = (method: string) => panel.requests.filter((request) => request.method === method);
const box = (name: string) => screen.getByRole('checkbox', { name });

describe('/admin/roles', () => {
  it('lists each role with its description and how many permissions it holds', async () => {
    panel.on('GET /api/application/roles', () => listOf(support, auditor));
    renderApp('/admin/roles', { user: admin });
    const rows = within(await screen.findByRole('table', { name: 'Roles' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Support');
    expect(rows[1]).toHaveTextContent('Helps players');
    expect(rows[1]).toHaveTextContent('3 permissions');
    expect(rows[2]).toHaveTextContent('1 permission');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Support' })).toHaveAttribute(
      'href',
      '/admin/roles/1',
    );
    expect(screen.getByRole('link', { name: 'Create Role' })).toHaveAttribute('href', '/admin/roles/new');
    expect(document.title).toBe('Roles | Aerie Test');
  });

  it('deletes a role once confirmed', async () => {
    panel.on('GET /api/application/roles', () => listOf(support, auditor));
    panel.on('DELETE /api/application/roles/2', () => ({ status: 204 }));
    const { user } = renderApp('/admin/roles', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Delete role Auditor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this role?' });
    expect(dialog).toHaveTextContent('"Auditor" will be deleted.');
    panel.on('GET /api/application/roles', () => listOf(support));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent('The role Auditor was deleted.');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Auditor' })).not.toBeInTheDocument());
    expect(requests('DELETE').map((request) => request.url)).toEqual(['/api/application/roles/2']);
  });
});

describe('/admin/roles/new', () => {
  it('lays the permissions out as a grid: a row per area, read and write, the audit log read only', async () => {
    renderApp('/admin/roles/new', { user: admin });
    const grid = await screen.findByRole('table', { name: 'Permissions' });
    const servers = within(grid).getByRole('rowheader', { name: 'Servers' }).closest('tr') as HTMLElement;
    expect(
      within(servers)
        .getAllByRole('checkbox')
        .map((input) => input.getAttribute('aria-label')),
    ).toEqual(['Read: Servers', 'Write: Servers']);
    const audit = within(grid).getByRole('rowheader', { name: 'Audit Log' }).closest('tr') as HTMLElement;
    expect(
      within(audit)
        .getAllByRole('checkbox')
        .map((input) => input.getAttribute('aria-label')),
    ).toEqual(['Read: Audit Log']);
    // 13 areas, one without write.
    expect(within(grid).getAllByRole('checkbox')).toHaveLength(25);
    expect(
      within(grid)
        .getAllByRole('checkbox')
        .every((input) => !(input as HTMLInputElement).checked),
    ).toBe(true);
  });

  it('checks the name first, then creates the role with the ticked permissions and opens it', async () => {
    panel.on('POST /api/application/roles', (request) => {
      const body = request.body as { name: string; description: string | null; permissions: string[] };
      return { status: 201, body: roleItem(7, body.name, body.permissions, body.description) };
    });
    const { user } = renderApp('/admin/roles/new', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Create Role' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(requests('POST')).toEqual([]);

    await user.type(screen.getByLabelText('Name'), 'Node team');
    await user.click(box('Write: Nodes'));
    await user.click(box('Read: Nodes'));
    await user.click(box('Read: Audit Log'));
    await user.click(screen.getByRole('button', { name: 'Create Role' }));

    expect(await screen.findByRole('heading', { name: 'Node team' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The role was created.');
    expect(requests('POST')[0]?.body).toEqual({
      name: 'Node team',
      description: null,
      permissions: ['nodes.read', 'nodes.write', 'audit_log.read'],
    });
    expect(box('Read: Nodes')).toBeChecked();
    expect(box('Write: Nodes')).toBeChecked();
    expect(box('Read: Servers')).not.toBeChecked();
  });

  it('shows the panel refusing a permission the admin does not hold', async () => {
    panel.on('POST /api/application/roles', () =>
      errorEnvelope(403, 'AccessDeniedHttpException', adminRoleMessages.beyondOwn),
    );
    const { user } = renderApp('/admin/roles/new', { user: admin });
    await user.type(await screen.findByLabelText('Name'), 'Too much');
    await user.click(box('Write: Settings'));
    await user.click(screen.getByRole('button', { name: 'Create Role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You cannot grant permissions you do not have.',
    );
    expect(screen.getByRole('heading', { name: 'New Role' })).toBeInTheDocument();
  });

  it('lets an admin with a role tick only what their role holds', async () => {
    const roleAdmin = pageUser({ admin_permissions: ['roles.read', 'roles.write', 'servers.read'] });
    renderApp('/admin/roles/new', { user: roleAdmin });
    expect(await screen.findByRole('checkbox', { name: 'Read: Servers' })).toBeEnabled();
    expect(box('Write: Servers')).toBeDisabled();
    expect(box('Read: Nodes')).toBeDisabled();
    expect(box('Write: Roles')).toBeEnabled();
    expect(
      screen.getByText(/Permissions you do not hold yourself cannot be granted and are greyed out\./),
    ).toBeInTheDocument();
  });
});

describe('/admin/roles/:id', () => {
  it('shows the role in its grid and saves every field again', async () => {
    panel.on('GET /api/application/roles/1', () => ({ body: support }));
    panel.on('PATCH /api/application/roles/1', (request) => {
      const body = request.body as { name: string; description: string | null; permissions: string[] };
      return { body: roleItem(1, body.name, body.permissions, body.description) };
    });
    const { user } = renderApp('/admin/roles/1', { user: admin });
    expect(await screen.findByRole('heading', { name: 'Support' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Support');
    expect(screen.getByLabelText('Description')).toHaveValue('Helps players');
    expect(box('Read: Servers')).toBeChecked();
    expect(box('Read: Users')).toBeChecked();
    expect(box('Write: Users')).toBeChecked();
    expect(box('Write: Servers')).not.toBeChecked();

    await user.click(box('Write: Users'));
    await user.click(box('Read: Mounts'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The role was saved.')).toBeInTheDocument();
    expect(requests('PATCH')[0]?.body).toEqual({
      name: 'Support',
      description: 'Helps players',
      permissions: ['servers.read', 'users.read', 'mounts.read'],
    });
  });

  it('shows a 422 of the panel under its field', async () => {
    panel.on('GET /api/application/roles/1', () => ({ body: support }));
    panel.on('PATCH /api/application/roles/1', () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The name has already been taken.',
            meta: { source_field: 'name', rule: 'unique' },
          },
        ],
      },
    }));
    const { user } = renderApp('/admin/roles/1', { user: admin });
    await user.clear(await screen.findByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Auditor');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The name has already been taken.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes the role once confirmed and goes back to the list', async () => {
    panel.on('GET /api/application/roles/1', () => ({ body: support }));
    panel.on('DELETE /api/application/roles/1', () => ({ status: 204 }));
    panel.on('GET /api/application/roles', () => listOf(auditor));
    const { user } = renderApp('/admin/roles/1', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this role?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete role' }));
    expect(await screen.findByText('The role Support was deleted.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Roles' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Auditor' })).toBeInTheDocument();
  });

  it('is read-only for an admin whose role reads roles but may not write them', async () => {
    panel.on('GET /api/application/roles/1', () => ({ body: support }));
    renderApp('/admin/roles/1', { user: pageUser({ admin_permissions: ['roles.read'] }) });
    expect(await screen.findByRole('heading', { name: 'Support' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(box('Read: Servers')).toBeDisabled();
    expect(box('Read: Servers')).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('is the not-found page for a role that does not exist', async () => {
    renderApp('/admin/roles/99', { user: admin });
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
  });
});
