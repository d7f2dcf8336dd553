import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';
import { apiClient } from '@/lib/api-client';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { pageUser, renderApp } from '@/testing/render-app';
import { type ServerFixture, serverDetail, serverList } from '@/testing/server-fixtures';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

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
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => vi.unstubAllGlobals());

const base: ServerFixture = {
  identifier: 'abcd1234',
  internal_id: 42,
  name: 'Skyblock',
  node: 'Frankfurt 1',
  description: 'Islands in the sky',
  limits: { cpu: 150, memory: 4096, disk: 0 },
  allocations: [{ ip: '10.1.1.1', ip_alias: 'sky.example.com', port: 25565, is_default: true }],
};

function serve(overrides: ServerFixture = {}, access: { owner?: boolean; permissions?: string[] } = {}) {
  server.on('GET /api/client/servers/abcd1234', () => ({
    body: serverDetail({ ...base, ...overrides }, access),
  }));
  server.on('GET /api/client/servers/abcd1234/websocket', () => ({
    body: { data: { token: 'token-1', socket: 'wss://node.example.com:8080/api/servers/abcd1234/ws' } },
  }));
}

const tabNames = async () => {
  const nav = await screen.findByRole('navigation', { name: 'Server' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.getAttribute('aria-label') ?? link.textContent);
};

describe('server area', () => {
  it('opens on the console with the server basics and the title "{server} | Console"', async () => {
    serve();
    renderApp('/server/abcd1234', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Console');
    expect(screen.getByText('Islands in the sky')).toBeInTheDocument();
    expect(screen.getByText('sky.example.com:25565')).toBeInTheDocument();
    expect(screen.getByText('Frankfurt 1')).toBeInTheDocument();
    expect(screen.getByText('150 %')).toBeInTheDocument();
    expect(screen.getByText('4 GB')).toBeInTheDocument();
    expect(screen.getByText('Unlimited')).toBeInTheDocument();
    // The server, then the console socket's credentials (the socket serves every page of the server).
    await waitFor(() =>
      expect(server.requests.map((r) => r.url)).toEqual([
        '/api/client/servers/abcd1234',
        '/api/client/servers/abcd1234/websocket',
      ]),
    );
    // The socket opens once the credentials' answer is read, a moment after the request is recorded.
    await waitFor(() =>
      expect(FakeWebSocket.latest().url).toBe('wss://node.example.com:8080/api/servers/abcd1234/ws'),
    );
  });

  it('gives the owner every tab, each to its page', async () => {
    serve();
    renderApp('/server/abcd1234', { user: pageUser() });
    expect(await tabNames()).toEqual([
      'Console',
      'File Manager',
      'Databases',
      'Schedules',
      'Users',
      'Backups',
      'Network',
      'Startup',
      'Settings',
      'Activity',
    ]);
    const nav = screen.getByRole('navigation', { name: 'Server' });
    expect(within(nav).getByRole('link', { name: 'Console' })).toHaveAttribute('href', '/server/abcd1234');
    expect(within(nav).getByRole('link', { name: 'Network' })).toHaveAttribute(
      'href',
      '/server/abcd1234/network',
    );
  });

  it.each([
    [
      ['control.console', 'file.read', 'backup.create'],
      ['Console', 'File Manager', 'Backups'],
    ],
    // SFTP sign-in alone opens nothing in the file manager: no Files tab, but Settings (where the SFTP details are).
    [['file.sftp'], ['Console', 'Settings']],
    [
      ['settings.rename', 'startup.read', 'allocation.read'],
      ['Console', 'Network', 'Startup', 'Settings'],
    ],
    [['activity.read'], ['Console', 'Activity']],
    [[], ['Console']],
  ])('shows a subuser holding %j only the tabs %j', async (permissions, tabs) => {
    serve({}, { owner: false, permissions });
    renderApp('/server/abcd1234', { user: pageUser() });
    expect(await tabNames()).toEqual(tabs);
  });

  it.each([
    ['files', 'File Manager'],
    ['files/new', 'File Editor'],
    ['files/edit', 'File Editor'],
    ['databases', 'Databases'],
    ['schedules', 'Schedules'],
    ['schedules/7', 'Schedules'],
    ['users', 'Users'],
    ['backups', 'Backups'],
    ['network', 'Network'],
    ['startup', 'Startup Settings'],
    ['settings', 'Settings'],
    ['activity', 'Activity Log'],
  ])('shows /%s to the owner as "%s"', async (path, title) => {
    serve();
    renderApp(`/server/abcd1234/${path}`, { user: pageUser() });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(document.title).toBe(`Skyblock | ${title}`);
  });

  it.each([
    'files',
    'files/edit',
    'databases',
    'schedules',
    'schedules/3',
    'users',
    'backups',
    'network',
    'activity',
  ])('denies /%s to a subuser without its permission', async (path) => {
    serve({}, { owner: false, permissions: ['control.console', 'startup.read'] });
    renderApp(`/server/abcd1234/${path}`, { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText('You do not have permission to access this page.')).toBeInTheDocument();
  });

  it.each([
    ['startup', ['control.console', 'settings.rename']],
    ['settings', ['control.console', 'startup.read']],
    ['files', ['file.sftp']],
    ['files/edit', ['file.sftp']],
  ])(
    'denies /%s at once (not after a failed load) to a subuser holding only %j',
    async (path, permissions) => {
      serve({}, { owner: false, permissions });
      renderApp(`/server/abcd1234/${path}`, { user: pageUser() });
      expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
      expect(screen.queryByText('Debug Information')).not.toBeInTheDocument();
    },
  );

  it('lets a subuser in with any permission of the page’s category', async () => {
    serve({}, { owner: false, permissions: ['database.read'] });
    renderApp('/server/abcd1234/databases', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Databases' })).toBeInTheDocument();
  });

  it('treats a missing permission list as no permissions', async () => {
    server.on('GET /api/client/servers/abcd1234', () => {
      const { meta: _ignored, ...body } = serverDetail(base);
      return { body: { ...body, meta: { is_server_owner: false } } };
    });
    renderApp('/server/abcd1234/files', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });

  it.each(['nowhere', 'files/rename', 'console', 'schedules/1/tasks'])(
    'shows not-found for /%s',
    async (path) => {
      serve();
      renderApp(`/server/abcd1234/${path}`, { user: pageUser() });
      expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    },
  );

  it('fills the page with the message when the server cannot be loaded', async () => {
    server.on('GET /api/client/servers/abcd1234', () =>
      errorEnvelope(404, 'NotFoundHttpException', 'The requested resource does not exist on this server.'),
    );
    renderApp('/server/abcd1234', { user: pageUser() });
    expect(
      await screen.findByText('The requested resource does not exist on this server.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Server' })).not.toBeInTheDocument();
  });

  it('links root admins to the admin view of the server in a new tab', async () => {
    serve();
    renderApp('/server/abcd1234', { user: pageUser({ root_admin: true }) });
    const link = await screen.findByRole('link', { name: 'Admin View' });
    expect(link).toHaveAttribute('href', '/admin/servers/view/42');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('has no admin link for other users', async () => {
    serve();
    renderApp('/server/abcd1234', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Console' });
    expect(screen.queryByRole('link', { name: 'Admin View' })).not.toBeInTheDocument();
  });
});

describe('blocked views', () => {
  it.each([
    [
      { status: 'installing' },
      'Running Installer',
      'Your server should be ready soon, please try again in a few minutes.',
    ],
    [
      { status: 'install_failed' },
      'Running Installer',
      'Your server should be ready soon, please try again in a few minutes.',
    ],
    [{ status: 'suspended' }, 'Server Suspended', 'This server is suspended and cannot be accessed.'],
    [
      { is_transferring: true },
      'Transferring',
      'Your server is being transfered to a new node, please check back later.',
    ],
    [
      { status: 'restoring_backup' },
      'Restoring from Backup',
      'Your server is currently being restored from a backup, please check back in a few minutes.',
    ],
  ] as [ServerFixture, string, string][])('shows %j servers as "%s"', async (state, title, text) => {
    serve(state);
    renderApp('/server/abcd1234', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Console' })).not.toBeInTheDocument();
    // The tabs stay, so the user knows where they are.
    expect(screen.getByRole('navigation', { name: 'Server' })).toBeInTheDocument();
  });

  it('blocks every page, even ones the user may open', async () => {
    serve({ status: 'suspended' });
    renderApp('/server/abcd1234/backups', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Server Suspended' })).toBeInTheDocument();
  });

  it('lets root admins see the bare server page with a notice, but not the other pages', async () => {
    serve({ status: 'installing' });
    const { router, user } = renderApp('/server/abcd1234', { user: pageUser({ root_admin: true }) });
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This server is running its installer.');

    await user.click(
      within(screen.getByRole('navigation', { name: 'Server' })).getByRole('link', { name: 'Backups' }),
    );
    expect(await screen.findByRole('heading', { name: 'Running Installer' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234/backups');
  });

  it('tells root admins on the console that the server is being transferred', async () => {
    serve({ is_transferring: true });
    renderApp('/server/abcd1234', { user: pageUser({ root_admin: true }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('This server is moving to another node.');
  });
});

describe('leaving the server', () => {
  it('forgets the server and its client state, so coming back loads it again', async () => {
    serve();
    server.on('GET /api/client', () => ({ body: serverList([]) }));
    const { router } = renderApp('/server/abcd1234', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Console' });
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    const socket = FakeWebSocket.latest();
    socket.open();
    socket.receive('auth success');
    socket.receive('status', 'running');
    useServerStateStore.getState().setDirectory('/plugins');
    expect(useServerStateStore.getState()).toMatchObject({ status: 'running', connected: true });

    await router.navigate('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    // The layout forgets on unmount, in a passive effect: it may run just after the dashboard is on screen.
    await waitFor(() =>
      expect(useServerStateStore.getState()).toMatchObject({
        status: null,
        connected: false,
        directory: '/',
        selectedFiles: [],
      }),
    );
    // The socket is closed normally (no reconnect) and hears nothing more.
    expect(socket.closedWith).toBe(1000);
    socket.receive('status', 'offline');
    expect(useServerStateStore.getState().status).toBeNull();

    serve({ name: 'Skyblock renamed' });
    await router.navigate('/server/abcd1234');
    await waitFor(() => expect(document.title).toBe('Skyblock renamed | Console'));
    expect(server.requests.filter((r) => r.url === '/api/client/servers/abcd1234')).toHaveLength(2);
  });
});
