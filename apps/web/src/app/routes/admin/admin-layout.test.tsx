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
  it('is the not-found page for a user who is not a root admin, and asks the API nothing', async () => {
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
});
