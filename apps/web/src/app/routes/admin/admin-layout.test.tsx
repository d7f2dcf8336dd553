import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';

const panel = setUpPanelTestServer();

const overviewBody = {
  object: 'overview',
  attributes: {
    version: '0.1.0',
    nodes: [
      {
        id: 1,
        name: 'Local node',
        fqdn: '127.0.0.1',
        maintenance_mode: false,
        online: true,
        version: '0.1.0',
        cpu_count: 2,
        memory_bytes: 24 * 1024 ** 3,
      },
      {
        id: 2,
        name: 'Far node',
        fqdn: 'far.example.com',
        maintenance_mode: true,
        online: false,
        version: null,
        cpu_count: null,
        memory_bytes: null,
      },
    ],
    servers: { total: 3, by_status: { normal: 2, suspended: 1 } },
  },
};

describe('/admin', () => {
  it('is the not-found page for a user with neither root admin nor a role, and asks the API nothing', async () => {
    renderApp('/admin', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(panel.requests.filter((request) => request.url.startsWith('/api/application'))).toEqual([]);
  });

  it('shows a root admin the side menu and the overview: version, node health, servers by state', async () => {
    panel.on('GET /api/application/overview', () => ({ body: overviewBody }));
    renderApp('/admin', { user: pageUser({ root_admin: true }) });
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Administration' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Overview',
      'Settings',
      'Application API',
      'Databases',
      'Locations',
      'Nodes',
      'Servers',
      'Users',
      'Nests',
      'Mounts',
      'Roles',
      'Sign-in Providers',
      'Audit Log',
    ]);
    expect(within(menu).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('Panel version 0.1.0')).toBeInTheDocument();
    const local = screen.getByText('Local node').closest('li') as HTMLElement;
    expect(within(local).getByText('Online')).toBeInTheDocument();
    expect(within(local).getByText('2 CPUs')).toBeInTheDocument();
    const far = screen.getByText('Far node').closest('li') as HTMLElement;
    expect(within(far).getByText('Offline')).toBeInTheDocument();
    expect(within(far).getByText('Maintenance')).toBeInTheDocument();
    expect(screen.getByText('Suspended').nextSibling).toHaveTextContent('1');
    // A server with no status is usable, not necessarily running: the panel does not know its power state here.
    expect(screen.getByText('Ready (installed, not blocked)').nextSibling).toHaveTextContent('2');
    expect(screen.queryByText('Running normally')).not.toBeInTheDocument();
    expect(document.title).toBe('Overview | Aerie Test');
  });

  describe('for an admin with a role', () => {
    const usersPage = {
      body: {
        object: 'list',
        data: [],
        meta: { pagination: { total: 0, count: 0, per_page: 50, current_page: 1, total_pages: 1 } },
      },
    };
    const roleUser = (...permissions: string[]) => pageUser({ admin_permissions: permissions });
    const menuLinks = () =>
      within(screen.getByRole('navigation', { name: 'Administration' }))
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]);

    it('shows the admin link and only the sections the role reads, landing on the first one', async () => {
      panel.on('GET /api/application/users', () => usersPage);
      const { router, user } = renderApp('/', {
        user: roleUser('users.read', 'audit_log.read', 'servers.write'),
      });
      await user.click(await screen.findByRole('link', { name: 'Admin' }));
      // No nodes.read, so no overview: /admin opens the first section it may read.
      expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/admin/users');
      expect(menuLinks()).toEqual([
        ['Application API', '/admin/api'],
        ['Users', '/admin/users'],
        ['Audit Log', '/admin/audit'],
      ]);
    });

    it("hides the buttons that create or delete without the area's write permission", async () => {
      panel.on('GET /api/application/users', () => usersPage);
      panel.on('GET /api/application/users/4', () => ({
        body: {
          object: 'user',
          attributes: {
            id: 4,
            external_id: null,
            uuid: 'user-uuid-4',
            username: 'robin',
            email: 'robin@example.com',
            first_name: 'Robin',
            last_name: 'Doe',
            language: 'en',
            root_admin: false,
            '2fa': false,
            created_at: '2026-01-02T03:04:05+00:00',
            updated_at: '2026-01-02T03:04:05+00:00',
            relationships: { servers: { object: 'list', data: [] } },
          },
        },
      }));
      panel.on('GET /api/application/roles', () => usersPage);
      const readOnly = renderApp('/admin/users', { user: roleUser('users.read') });
      expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
      expect(await screen.findByText('There are no users yet.')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Create User' })).not.toBeInTheDocument();
      readOnly.unmount();

      renderApp('/admin/users/view/4', { user: roleUser('users.read') });
      expect(await screen.findByRole('heading', { name: 'robin' })).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toBeDisabled();
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Delete User' })).not.toBeInTheDocument();
    });

    it('shows the create button with the write permission', async () => {
      panel.on('GET /api/application/users', () => usersPage);
      renderApp('/admin/users', { user: roleUser('users.read', 'users.write') });
      expect(await screen.findByRole('button', { name: 'Create User' })).toBeInTheDocument();
    });

    it('is the not-found page for a section the role does not read, asking the API nothing', async () => {
      renderApp('/admin/settings', { user: roleUser('users.read') });
      expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
      expect(menuLinks()).toEqual([
        ['Application API', '/admin/api'],
        ['Users', '/admin/users'],
      ]);
      expect(panel.requests.filter((request) => request.url.startsWith('/api/application'))).toEqual([]);
    });

    it('is the not-found page for a page that creates, with read alone', async () => {
      renderApp('/admin/roles/new', { user: roleUser('roles.read') });
      expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    });
  });
});
