import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { type ServerFixture, serverItem, serverList, statsBody } from '@/testing/server-fixtures';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;
const MB = 1024 * 1024;

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
  // A failed usage call is logged (spec §8); keep the test output readable.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

const listCalls = () =>
  server.requests.filter((r) => r.url.split('?')[0] === '/api/client').map((r) => r.url);
const usageCalls = () => server.requests.filter((r) => r.url.endsWith('/resources')).map((r) => r.url);

/** The card of the server named `name` (each card is one link). */
const card = async (name: string) => screen.findByRole('link', { name: new RegExp(`^${name}`) });

describe('server cards', () => {
  it('shows name, description, default address and usage against the limits', async () => {
    server.on('GET /api/client', () => ({
      body: serverList([
        serverItem({
          identifier: 'a1b2c3d4',
          uuid: 'a1b2c3d4-1111-4000-8000-000000000001',
          name: 'Survival',
          description: 'Friends only',
          limits: { cpu: 200, memory: 2048, disk: 10240 },
          allocations: [
            { ip: '10.0.0.5', port: 25000, is_default: false },
            { ip: '10.0.0.5', ip_alias: 'play.example.com', port: 25565, is_default: true },
          ],
        }),
        serverItem({ name: 'Creative', allocations: [{ ip: '192.168.1.9', port: 27015, is_default: true }] }),
      ]),
    }));
    server.on('GET /api/client/servers/a1b2c3d4-1111-4000-8000-000000000001/resources', () => ({
      body: statsBody({ cpu: 12.3456, memory: 512 * MB, disk: 1536 * MB }),
    }));
    renderApp('/', { user: pageUser() });

    const survival = await card('Survival');
    expect(survival).toHaveAttribute('href', '/server/a1b2c3d4');
    expect(within(survival).getByText('Friends only')).toBeInTheDocument();
    expect(within(survival).getByText('play.example.com:25565')).toBeInTheDocument();
    expect(await within(survival).findByText('12.35 %')).toBeInTheDocument();
    expect(within(survival).getByText('of 200 %')).toBeInTheDocument();
    expect(within(survival).getByText('512 MB')).toBeInTheDocument();
    expect(within(survival).getByText('of 2 GB')).toBeInTheDocument();
    expect(within(survival).getByText('1.5 GB')).toBeInTheDocument();
    expect(within(survival).getByText('of 10 GB')).toBeInTheDocument();

    const creative = await card('Creative');
    expect(within(creative).getByText('192.168.1.9:27015')).toBeInTheDocument();
    // Its usage call got the panel's 404: it says so instead of figures.
    expect(await within(creative).findByText('Connection Error')).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'The requested resource could not be found on the server.' }),
    );
    expect(document.title).toBe('Dashboard | Aerie Test');
  });

  it('keeps the last known figures while the node reconnects, and says so', async () => {
    const item = serverItem({ name: 'Survival' });
    server.on('GET /api/client', () => ({ body: serverList([item]) }));
    const last = statsBody({ state: 'running', memory: 512 * MB });
    server.on(`GET /api/client/servers/${item.attributes.uuid}/resources`, () => ({
      body: { ...last, attributes: { ...last.attributes, is_node_reconnecting: true } },
    }));
    renderApp('/', { user: pageUser() });

    const survival = await card('Survival');
    expect(await within(survival).findByText('512 MB')).toBeInTheDocument();
    expect(within(survival).getByRole('status')).toHaveTextContent(
      'Reconnecting to the node: last known state shown',
    );
    // Running, as the daemon last said: the game keeps running while its daemon restarts.
    expect(survival.querySelector('[data-status-tone]')).toHaveAttribute('data-status-tone', 'green');
    expect(within(survival).queryByText('Connection Error')).not.toBeInTheDocument();
  });

  it('says Unlimited for limits of 0', async () => {
    const item = serverItem({ name: 'Big', limits: { cpu: 0, memory: 0, disk: 0 } });
    server.on('GET /api/client', () => ({ body: serverList([item]) }));
    server.on(`GET /api/client/servers/${item.attributes.uuid}/resources`, () => ({
      body: statsBody({ cpu: 350, memory: 64 * 1024 * MB, disk: 1024 }),
    }));
    renderApp('/', { user: pageUser() });
    const big = await card('Big');
    expect(await within(big).findByText('350.00 %')).toBeInTheDocument();
    expect(within(big).getAllByText('of Unlimited')).toHaveLength(3);
    expect(within(big).getByText('64 GB')).toBeInTheDocument();
    expect(within(big).getByText('1 kB')).toBeInTheDocument();
    // Nothing is over a limit that does not exist.
    expect(big.querySelectorAll('[data-alarm]')).toHaveLength(0);
  });

  it('flags figures at 90 % of their limit', async () => {
    const item = serverItem({ name: 'Hot', limits: { cpu: 100, memory: 1000, disk: 1000 } });
    server.on('GET /api/client', () => ({ body: serverList([item]) }));
    server.on(`GET /api/client/servers/${item.attributes.uuid}/resources`, () => ({
      body: statsBody({ cpu: 90, memory: 900 * MB, disk: 900 * MB - 1 }),
    }));
    renderApp('/', { user: pageUser() });
    const hot = await card('Hot');
    await within(hot).findByText('90.00 %');
    const flagged = [...hot.querySelectorAll('[data-alarm]')].map(
      (figure) => figure.querySelector('dt')?.textContent,
    );
    expect(flagged).toEqual(['CPU', 'Memory']);
  });

  it.each([
    ['running', 'green'],
    ['offline', 'red'],
    ['', 'red'],
    ['starting', 'amber'],
    ['stopping', 'amber'],
  ])('colours a %j server %s', async (state, tone) => {
    const item = serverItem({ name: 'Coloured' });
    server.on('GET /api/client', () => ({ body: serverList([item]) }));
    server.on(`GET /api/client/servers/${item.attributes.uuid}/resources`, () => ({
      body: statsBody({ state, cpu: 1 }),
    }));
    renderApp('/', { user: pageUser() });
    const coloured = await card('Coloured');
    await within(coloured).findByText('1.00 %');
    expect(coloured.querySelector('[data-status-tone]')).toHaveAttribute('data-status-tone', tone);
  });

  it.each([
    [{ status: 'installing' }, 'Installing'],
    [{ status: 'install_failed' }, 'Unavailable'],
    [{ status: 'restoring_backup' }, 'Restoring Backup'],
    [{ is_transferring: true }, 'Transferring'],
  ] as [ServerFixture, string][])(
    'shows %j servers as %s while their usage is unavailable',
    async (state, badge) => {
      const item = serverItem({ name: 'Busy', ...state });
      server.on('GET /api/client', () => ({ body: serverList([item]) }));
      server.on(`GET /api/client/servers/${item.attributes.uuid}/resources`, () =>
        errorEnvelope(409, 'ConflictHttpException', 'This server is busy.'),
      );
      renderApp('/', { user: pageUser() });
      const busy = await card('Busy');
      expect(await within(busy).findByText(badge)).toBeInTheDocument();
      expect(busy).toHaveTextContent(/Busy.*(Installing|Unavailable|Restoring Backup|Transferring)$/);
    },
  );

  it('shows Suspended without polling a suspended server, and when the daemon says so', async () => {
    const byStatus = serverItem({ name: 'Banned', status: 'suspended' });
    const byDaemon = serverItem({ name: 'Frozen' });
    server.on('GET /api/client', () => ({ body: serverList([byStatus, byDaemon]) }));
    server.on(`GET /api/client/servers/${byDaemon.attributes.uuid}/resources`, () => ({
      body: statsBody({ suspended: true, state: 'offline' }),
    }));
    renderApp('/', { user: pageUser() });
    expect(await within(await card('Banned')).findByText('Suspended')).toBeInTheDocument();
    expect(await within(await card('Frozen')).findByText('Suspended')).toBeInTheDocument();
    expect(usageCalls()).toEqual([`/api/client/servers/${byDaemon.attributes.uuid}/resources`]);
  });

  it('shows a spinner until the usage arrives', async () => {
    const item = serverItem({ name: 'Slow' });
    server.on('GET /api/client', () => ({ body: serverList([item]) }));
    server.on(`GET /api/client/servers/${item.attributes.uuid}/resources`, () => ({
      body: statsBody({ cpu: 5 }),
      delayMs: 400,
    }));
    renderApp('/', { user: pageUser() });
    const slow = await card('Slow');
    expect(within(slow).getByRole('status')).toHaveTextContent('Loading usage');
    expect(await within(slow).findByText('5.00 %')).toBeInTheDocument();
    expect(within(slow).queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('dashboard list', () => {
  it('shows a spinner while the list loads', async () => {
    server.on('GET /api/client', () => ({ body: serverList([serverItem({ name: 'Late' })]), delayMs: 400 }));
    renderApp('/', { user: pageUser() });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    expect(await card('Late')).toBeInTheDocument();
  });

  it('says when there are no servers', async () => {
    server.on('GET /api/client', () => ({ body: serverList([]) }));
    renderApp('/', { user: pageUser() });
    expect(await screen.findByText('There are no servers associated with your account.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('shows a failed list as an error flash', async () => {
    server.on('GET /api/client', () => errorEnvelope(400, 'DisplayException', 'The panel is not happy.'));
    renderApp('/', { user: pageUser() });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ErrorThe panel is not happy.');
  });

  it('asks for the page in the address and moves between pages', async () => {
    server.on('GET /api/client', (request) => {
      const page = Number(new URL(request.url, server.url).searchParams.get('page'));
      return {
        body: serverList([serverItem({ name: `Server on page ${page}` })], {
          currentPage: page,
          totalPages: 4,
        }),
      };
    });
    const { user, router } = renderApp('/?page=3', { user: pageUser() });
    expect(await card('Server on page 3')).toBeInTheDocument();
    expect(listCalls()).toEqual(['/api/client?page=3']);

    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    expect(await card('Server on page 2')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');

    await user.click(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: 'Page 1' }),
    );
    expect(await card('Server on page 1')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('');
  });

  it('shows pages from two before to five after the current one, with jumps to the ends', async () => {
    server.on('GET /api/client', (request) => {
      const page = Number(new URL(request.url, server.url).searchParams.get('page') ?? 1);
      return {
        body: serverList([serverItem({ name: `Page ${page} server` })], {
          currentPage: page,
          totalPages: 20,
        }),
      };
    });
    const { user } = renderApp('/?page=10', { user: pageUser() });
    await card('Page 10 server');
    const labels = () =>
      within(screen.getByRole('navigation', { name: 'Pagination' }))
        .getAllByRole('button')
        .map((button) => button.textContent);
    expect(labels()).toEqual(['«First page', '8', '9', '10', '11', '12', '13', '14', '15', '»Last page']);

    await user.click(screen.getByRole('button', { name: 'Last page' }));
    await card('Page 20 server');
    expect(labels()).toEqual(['«First page', '18', '19', '20']);

    await user.click(screen.getByRole('button', { name: 'First page' }));
    await card('Page 1 server');
    expect(labels()).toEqual(['1', '2', '3', '4', '5', '6', '»Last page']);
  });

  it('goes back to page 1 when a later page comes back empty', async () => {
    server.on('GET /api/client', (request) => {
      const page = Number(new URL(request.url, server.url).searchParams.get('page') ?? 1);
      return page === 1
        ? { body: serverList([serverItem({ name: 'Only server' })]) }
        : { body: serverList([], { currentPage: page, totalPages: 1 }) };
    });
    const { router } = renderApp('/?page=5', { user: pageUser() });
    expect(await card('Only server')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(listCalls()).toEqual(['/api/client?page=5', '/api/client?page=1']);
  });

  it.each(['1', '0', '-2', 'abc'])('rewrites ?page=%s to the bare address', async (raw) => {
    server.on('GET /api/client', () => ({ body: serverList([]) }));
    const { router } = renderApp(`/?page=${raw}`, { user: pageUser() });
    await screen.findByText('There are no servers associated with your account.');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(listCalls().every((url) => url === '/api/client?page=1')).toBe(true);
  });
});

describe("root admins' toggle", () => {
  const admin = pageUser({ uuid: '0f0f0f0f-1111-4222-8333-444444444444', root_admin: true });
  const storageKey = '0f0f0f0f-1111-4222-8333-444444444444:show_all_servers';

  beforeEach(() => {
    server.on('GET /api/client', (request) => ({
      body: request.url.includes('type=admin')
        ? serverList([serverItem({ name: 'Someone else’s server' })])
        : serverList([]),
    }));
  });

  it('switches to other people’s servers and remembers the choice per user', async () => {
    const { user, unmount } = renderApp('/', { user: admin });
    const toggle = await screen.findByRole('switch', { name: 'Showing your servers' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(await screen.findByText('There are no servers associated with your account.')).toBeInTheDocument();

    await user.click(toggle);
    expect(await screen.findByRole('switch', { name: "Showing others' servers" })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(await card('Someone else’s server')).toBeInTheDocument();
    expect(listCalls()).toContain('/api/client?page=1&type=admin');
    expect(localStorage.getItem(storageKey)).toBe('true');
    unmount();

    // A new page load starts in the remembered mode.
    renderApp('/', { user: admin });
    expect(await screen.findByRole('switch', { name: "Showing others' servers" })).toBeInTheDocument();
    expect(await card('Someone else’s server')).toBeInTheDocument();
  });

  it('says when there are no other servers', async () => {
    server.on('GET /api/client', () => ({ body: serverList([]) }));
    localStorage.setItem(storageKey, 'true');
    renderApp('/', { user: admin });
    expect(await screen.findByText('There are no other servers to display.')).toBeInTheDocument();
  });

  it('is not offered to other users, whatever the storage says', async () => {
    localStorage.setItem('6c1b4f4e-0b36-4b8e-9a57-54b3b5c2f001:show_all_servers', 'true');
    renderApp('/', { user: pageUser() });
    expect(await screen.findByText('There are no servers associated with your account.')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(listCalls()).toEqual(['/api/client?page=1']);
  });
});
