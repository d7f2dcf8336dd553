import { databaseHostFormMessages } from '@aerie/shared/databases/database-hosts-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const hostItem = (id: number, name: string, overrides: Record<string, unknown> = {}) => ({
  object: 'database_host',
  attributes: {
    id,
    name,
    host: '10.0.0.5',
    port: 3306,
    username: 'aerie',
    node: null,
    driver: 'mysql',
    created_at: '2026-01-02T03:04:05+00:00',
    updated_at: '2026-01-02T03:04:05+00:00',
    ...overrides,
  },
});

const list = (...items: unknown[]) => ({
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

const nodes = () =>
  panel.on('GET /api/application/nodes', () =>
    list(
      { object: 'node', attributes: { id: 2, name: 'Zulu node' } },
      { object: 'node', attributes: { id: 1, name: 'Alpha node' } },
    ),
  );

const posts = () => panel.requests.filter((request) => request.method === 'POST');

describe('/admin/databases', () => {
  it('lists the hosts with address, driver and linked node', async () => {
    nodes();
    panel.on('GET /api/application/database-hosts', () =>
      list(
        hostItem(1, 'Main MySQL', { node: 1 }),
        hostItem(2, 'Postgres', { driver: 'postgres', port: 5432 }),
      ),
    );
    renderApp('/admin/databases', { user: admin });
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Main MySQL');
    expect(rows[1]).toHaveTextContent('10.0.0.5:3306');
    expect(await within(rows[1] as HTMLElement).findByText('Alpha node')).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('PostgreSQL');
    expect(rows[2]).toHaveTextContent('None');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Main MySQL' })).toHaveAttribute(
      'href',
      '/admin/databases/1',
    );
  });
});

describe('/admin/databases/new', () => {
  async function fill(port = '3306') {
    nodes();
    const view = renderApp('/admin/databases/new', { user: admin });
    await view.user.type(await screen.findByLabelText('Name'), 'Main MySQL');
    await view.user.type(screen.getByLabelText('Host'), '10.0.0.5');
    await view.user.clear(screen.getByLabelText('Port'));
    await view.user.type(screen.getByLabelText('Port'), port);
    await view.user.type(screen.getByLabelText('Username'), 'aerie');
    await view.user.type(screen.getByLabelText('Password'), 'hunter2');
    await screen.findByRole('option', { name: 'Alpha node' });
    await view.user.selectOptions(screen.getByLabelText('Linked node'), 'Alpha node');
    return view;
  }

  it('checks the fields before sending', async () => {
    const { user } = await fill('70000');
    await user.clear(screen.getByLabelText('Username'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(databaseHostFormMessages.port)).toBeInTheDocument();
    expect(screen.getByText(databaseHostFormMessages.usernameRequired)).toBeInTheDocument();
    expect(posts()).toEqual([]);
  });

  it('shows a refused connection inside the form', async () => {
    const detail =
      'There was an error while trying to connect to the host or while executing a query: "Access denied"';
    panel.on('POST /api/application/database-hosts', () => errorEnvelope(400, 'DisplayException', detail));
    const { user } = await fill();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(detail);
    expect(alert.closest('form')).not.toBeNull();
  });

  it("shows the panel's 422 under its field", async () => {
    panel.on('POST /api/application/database-hosts', () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The selected node id is invalid.',
            meta: { source_field: 'node_id', rule: 'exists' },
          },
        ],
      },
    }));
    const { user } = await fill();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Linked node')).toHaveAccessibleDescription(
        'The selected node id is invalid.',
      ),
    );
  });

  it('creates the host and opens its page', async () => {
    panel.on('POST /api/application/database-hosts', () => ({
      status: 201,
      body: hostItem(7, 'Main MySQL', { node: 1 }),
    }));
    panel.on('GET /api/application/database-hosts/7', () => ({
      body: hostItem(7, 'Main MySQL', { node: 1 }),
    }));
    const { user, router } = await fill();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Database host created.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/databases/7');
    expect(posts()[0]?.body).toEqual({
      name: 'Main MySQL',
      driver: 'mysql',
      host: '10.0.0.5',
      port: 3306,
      username: 'aerie',
      password: 'hunter2',
      node_id: 1,
    });
  });
});

describe('/admin/databases/:id', () => {
  it('keeps the password when left blank', async () => {
    nodes();
    panel.on('GET /api/application/database-hosts/3', () => ({ body: hostItem(3, 'Main MySQL') }));
    panel.on('PATCH /api/application/database-hosts/3', () => ({ body: hostItem(3, 'Renamed') }));
    const { user } = renderApp('/admin/databases/3', { user: admin });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Main MySQL');
    expect(screen.getByLabelText('Password')).toHaveAttribute(
      'placeholder',
      'Leave blank to keep the current password.',
    );
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Database host saved.')).toBeInTheDocument();
    const patch = panel.requests.find((request) => request.method === 'PATCH');
    expect(patch?.body).toMatchObject({ name: 'Renamed', password: null, node_id: null });
  });

  it('deletes the host once confirmed, and shows a refusal', async () => {
    panel.on('GET /api/application/database-hosts/3', () => ({ body: hostItem(3, 'Main MySQL') }));
    panel.on('GET /api/application/database-hosts', () => list());
    panel.on('DELETE /api/application/database-hosts/3', () =>
      errorEnvelope(
        400,
        'DisplayException',
        'Cannot delete a database host server that has active databases linked to it.',
      ),
    );
    const { user, router } = renderApp('/admin/databases/3', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete database host' });
    expect(dialog).toHaveTextContent('Delete Main MySQL?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Cannot delete a database host server that has active databases linked to it.',
    );

    panel.on('DELETE /api/application/database-hosts/3', () => ({ status: 204 }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete database host' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The database host was deleted.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/databases');
  });
});
