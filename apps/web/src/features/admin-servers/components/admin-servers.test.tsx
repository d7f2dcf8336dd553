import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminServerAttributes as serverAttributes } from '@/testing/admin-server-fixtures';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = { user: pageUser({ root_admin: true }) };

const list = (data: unknown[]) => ({
  object: 'list',
  data,
  meta: {
    pagination: {
      total: data.length,
      count: data.length,
      per_page: 50,
      current_page: 1,
      total_pages: 1,
      links: [],
    },
  },
});

function answerChoices() {
  panel.on('GET /api/application/nodes', () => ({
    body: list([{ object: 'node', attributes: { id: 1, name: 'Local node' } }]),
  }));
  panel.on('GET /api/application/locations', () => ({
    body: list([{ object: 'location', attributes: { id: 1, short: 'local', long: null } }]),
  }));
  panel.on('GET /api/application/nests', () => ({
    body: list([{ object: 'nest', attributes: { id: 1, name: 'Aerie' } }]),
  }));
  panel.on('GET /api/application/nests/1/eggs', () => ({
    body: {
      object: 'list',
      data: [
        {
          object: 'egg',
          attributes: {
            id: 2,
            name: 'Demo',
            nest: 1,
            docker_images: { 'Node 20': 'node:20-bookworm-slim' },
            startup: 'node demo-server.mjs',
            relationships: {
              variables: list([
                {
                  object: 'egg_variable',
                  attributes: {
                    name: 'Message of the Day',
                    env_variable: 'MOTD',
                    default_value: 'Welcome',
                    description: '',
                    rules: 'required|string',
                  },
                },
              ]),
            },
          },
        },
      ],
    },
  }));
  // Free until a server takes it.
  panel.on('GET /api/application/nodes/1/allocations', () => ({
    body: list(
      panel.requests.some(
        (request) => request.method === 'POST' && request.url === '/api/application/servers',
      )
        ? []
        : [
            {
              object: 'allocation',
              attributes: { id: 11, ip: '127.0.0.1', port: 25565, alias: null, assigned: false },
            },
          ],
    ),
  }));
  panel.on('GET /api/application/users', () => ({
    body: list([{ object: 'user', attributes: { id: 3, username: 'kim', email: 'kim@example.com' } }]),
  }));
}

describe('admin servers', () => {
  it('lists servers with owner, node and state, searched by name', async () => {
    panel.on('GET /api/application/servers', () => ({
      body: list([{ object: 'server', attributes: serverAttributes() }]),
    }));
    const { user } = renderApp('/admin/servers', admin);
    const row = (await screen.findByRole('link', { name: 'Survival' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('kim')).toBeInTheDocument();
    expect(within(row).getByText('Local node')).toBeInTheDocument();
    expect(within(row).getByText('Normal')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'surv');
    await waitFor(() =>
      expect(panel.requests.some((request) => request.url.includes('filter%5Bname%5D=surv'))).toBe(true),
    );
  });

  it('refuses to create without an owner or allocation, then creates with the picked values', async () => {
    answerChoices();
    panel.on('POST /api/application/servers', () => ({
      status: 201,
      body: { object: 'server', attributes: serverAttributes() },
    }));
    panel.on('GET /api/application/servers/7', () => ({
      body: { object: 'server', attributes: serverAttributes() },
    }));
    const { user, router } = renderApp('/admin/servers/new', admin);
    await user.type(await screen.findByLabelText('Server name'), 'Survival');
    await user.click(screen.getByRole('button', { name: 'Create Server' }));
    expect(await screen.findByText('Pick the owner from the list.')).toBeInTheDocument();
    expect(screen.getByText('Pick a free allocation.')).toBeInTheDocument();
    expect(panel.requests.some((request) => request.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText('Owner'), 'kim');
    await user.click(await screen.findByRole('button', { name: /kim/ }));
    // The panel's only node is already picked.
    await waitFor(() => expect(screen.getByLabelText('Node')).toHaveValue('1'));
    await user.selectOptions(
      await screen.findByLabelText('Primary allocation'),
      await screen.findByRole('option', { name: '127.0.0.1:25565' }),
    );
    await user.selectOptions(
      screen.getByLabelText('Egg'),
      await screen.findByRole('option', { name: 'Aerie / Demo' }),
    );
    expect(screen.getByLabelText('Startup command')).toHaveValue('node demo-server.mjs');
    expect(screen.getByLabelText('Message of the Day')).toHaveValue('Welcome');
    await user.click(screen.getByRole('button', { name: 'Create Server' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/servers/view/7'));
    const post = panel.requests.find((request) => request.method === 'POST');
    expect(post?.body).toMatchObject({
      name: 'Survival',
      user: 3,
      egg: 2,
      docker_image: 'node:20-bookworm-slim',
      startup: 'node demo-server.mjs',
      environment: { MOTD: 'Welcome' },
      allocation: { default: 11, additional: [] },
      limits: { memory: 1024, disk: 5120, io: 500, cpu: 100, swap: 0, threads: null },
      // Defaults a new host can use as they are: one database, its one port, three backups.
      feature_limits: { databases: 1, allocations: 1, backups: 3 },
      start_on_completion: true,
    });
    // Its Build tab does not offer the server its own primary allocation to add.
    await user.click(await screen.findByRole('link', { name: 'Build' }));
    const add = (await screen.findByText('Add allocations')).closest('fieldset') as HTMLElement;
    await waitFor(() => expect(within(add).queryByText('127.0.0.1:25565')).not.toBeInTheDocument());
  });

  it("shows the API's refusal above the form", async () => {
    answerChoices();
    panel.on('POST /api/application/servers', () =>
      errorEnvelope(
        400,
        'NoViableNodeException',
        'No nodes satisfying the requirements specified for automatic deployment could be found.',
      ),
    );
    const { user } = renderApp('/admin/servers/new', admin);
    await user.type(await screen.findByLabelText('Server name'), 'Big');
    await user.type(screen.getByLabelText('Owner'), 'kim');
    await user.click(await screen.findByRole('button', { name: /kim/ }));
    await user.click(screen.getByRole('radio', { name: 'Automatic deployment' }));
    await user.selectOptions(
      screen.getByLabelText('Egg'),
      await screen.findByRole('option', { name: 'Aerie / Demo' }),
    );
    await user.click(screen.getByRole('button', { name: 'Create Server' }));
    expect(
      await screen.findByText(
        'No nodes satisfying the requirements specified for automatic deployment could be found.',
      ),
    ).toBeInTheDocument();
    expect(panel.requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      deploy: { locations: [], dedicated_ip: false, port_range: [] },
    });
  });

  it('changes the owner on the Details tab by picking a user, not by typing an id', async () => {
    panel.on('GET /api/application/servers/7', () => ({
      body: { object: 'server', attributes: serverAttributes() },
    }));
    panel.on('GET /api/application/users', () => ({
      body: list([{ object: 'user', attributes: { id: 5, username: 'robin', email: 'robin@example.com' } }]),
    }));
    panel.on('PATCH /api/application/servers/7/details', () => ({
      body: { object: 'server', attributes: serverAttributes() },
    }));
    const { user } = renderApp('/admin/servers/view/7', admin);
    // The current owner, by name.
    expect(await screen.findByText('Owner: kim (kim@example.com)')).toBeInTheDocument();
    const search = screen.getByLabelText('Owner');
    await user.clear(search);
    await user.type(search, 'rob');
    await user.click(await screen.findByRole('button', { name: /robin/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(panel.requests.find((request) => request.method === 'PATCH')?.body).toMatchObject({ user: 5 }),
    );
  });

  it('suspends from the manage tab, and deletes after a confirmation', async () => {
    panel.on('GET /api/application/servers/7', () => ({
      body: { object: 'server', attributes: serverAttributes() },
    }));
    panel.on('POST /api/application/servers/7/suspend', () => ({ status: 204 }));
    panel.on('DELETE /api/application/servers/7', () => ({ status: 204 }));
    panel.on('GET /api/application/servers', () => ({ body: list([]) }));
    const { user, router } = renderApp('/admin/servers/view/7/manage', admin);
    await user.click(await screen.findByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('The server is suspended.')).toBeInTheDocument();
    expect(
      panel.requests.some((request) => request.method === 'POST' && request.url.endsWith('/suspend')),
    ).toBe(true);
    // The notice belongs to the tab it was given on: another tab starts without it.
    await user.click(screen.getByRole('link', { name: 'Build' }));
    await waitFor(() => expect(screen.queryByText('The server is suspended.')).not.toBeInTheDocument());
    await user.click(screen.getByRole('link', { name: 'Manage' }));

    await user.click(screen.getAllByRole('button', { name: 'Delete' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete Survival? This cannot be undone.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/servers'));
    expect(
      panel.requests.some(
        (request) => request.method === 'DELETE' && request.url === '/api/application/servers/7',
      ),
    ).toBe(true);
  });
});
