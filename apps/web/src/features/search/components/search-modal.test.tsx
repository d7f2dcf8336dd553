import { searchMessages } from '@aerie/shared/search/search-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { serverDetail, serverItem, serverList } from '@/testing/server-fixtures';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

const result = (n: number) =>
  serverItem({
    identifier: `srv0000${n}`,
    name: `Survival ${n}`,
    node: 'Node A',
    allocations: [
      { ip: '10.0.0.5', ip_alias: n === 1 ? 'play.example.com' : null, port: 25565 + n, is_default: true },
      { ip: '10.0.0.5', port: 30000, is_default: false },
    ],
  });

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
  server.on('GET /api/client', () => ({
    body: serverList([1, 2, 3, 4, 5, 6, 7].map(result)),
  }));
});

/** The search calls only: the dashboard behind the modal lists servers too. */
const searches = () => server.requests.map((r) => r.url).filter((url) => url.includes('filter'));

async function openSearch(rootAdmin = false) {
  const view = renderApp('/', { user: pageUser({ root_admin: rootAdmin }) });
  await view.user.click(await screen.findByRole('button', { name: 'Search' }));
  return { ...view, dialog: await screen.findByRole('dialog', { name: 'Search' }) };
}

describe('server search', () => {
  it('opens with meta+/ unless the user is typing in a field', async () => {
    server.on('GET /api/client', () => ({ body: serverList([]) }));
    const { user } = renderApp('/', { user: pageUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.keyboard('{Meta>}/{/Meta}');
    const dialog = await screen.findByRole('dialog', { name: 'Search' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    await user.keyboard('{Meta>}/{/Meta}');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    field.remove();
  });

  it('takes typing straight away after meta+/, and gives focus back when it closes', async () => {
    server.on('GET /api/client', () => ({ body: serverList([]) }));
    const { user } = renderApp('/', { user: pageUser() });
    const searchButton = await screen.findByRole('button', { name: 'Search' });
    searchButton.focus();
    await user.keyboard('{Meta>}/{/Meta}');
    const dialog = await screen.findByRole('dialog', { name: 'Search' });
    await user.keyboard('demo');
    expect(within(dialog).getByLabelText('Search term')).toHaveValue('demo');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(searchButton).toHaveFocus();
  });

  it('asks for a search term with the spec hint', async () => {
    const { dialog } = await openSearch();
    expect(within(dialog).getByLabelText('Search term')).toHaveAccessibleDescription(
      'Enter a server name, uuid, or allocation to begin searching.',
    );
  });

  it('wants three characters before it searches', async () => {
    const { user, dialog } = await openSearch();
    await user.type(within(dialog).getByLabelText('Search term'), 'ab');
    await user.tab();
    expect(await within(dialog).findByText(searchMessages.termMin)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(searches()).toHaveLength(0);
  });

  it('waits until typing has paused for 500 ms, then searches once for the whole term', async () => {
    const { user, dialog } = await openSearch();
    const field = within(dialog).getByLabelText('Search term');
    await user.type(field, 'surv');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await user.type(field, 'ival');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // 300 ms after the last key: still nothing sent.
    expect(searches()).toEqual([]);
    await waitFor(() => expect(searches()).toEqual(['/api/client?filter%5B*%5D=survival']), {
      timeout: 2_000,
    });
  });

  it('shows at most five matches with their default address and node, linking to the server', async () => {
    const { user, dialog } = await openSearch();
    await user.type(within(dialog).getByLabelText('Search term'), 'surv');
    const links = await within(dialog).findAllByRole('link', {}, { timeout: 2_000 });
    expect(links).toHaveLength(5);
    expect(links[0]).toHaveAttribute('href', '/server/srv00001');
    expect(links[0]).toHaveTextContent('Survival 1play.example.com:25566Node A');
    expect(links[1]).toHaveTextContent('Survival 210.0.0.5:25567Node A');
    expect(links[0]).not.toHaveTextContent('30000');
    expect(searches()).toEqual(['/api/client?filter%5B*%5D=surv']);
  });

  it('opens the server a result links to and closes the modal', async () => {
    server.on('GET /api/client/servers/srv00002', () => ({
      body: serverDetail({ identifier: 'srv00002', name: 'Survival 2' }),
    }));
    const { user, dialog, router } = await openSearch();
    await user.type(within(dialog).getByLabelText('Search term'), 'surv');
    const links = await within(dialog).findAllByRole('link', {}, { timeout: 2_000 });
    await user.click(links[1] as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/srv00002');
  });

  it('searches all servers for root admins', async () => {
    const { user, dialog } = await openSearch(true);
    await user.type(within(dialog).getByLabelText('Search term'), 'surv');
    await waitFor(() => expect(searches()).toEqual(['/api/client?filter%5B*%5D=surv&type=admin-all']), {
      timeout: 2_000,
    });
  });

  it('shows a failed search as an error in the modal', async () => {
    server.on('GET /api/client', (request) =>
      request.url.includes('filter')
        ? errorEnvelope(400, 'InvalidFilterQuery', 'Requested filter(s) `foo` are not allowed.')
        : { body: serverList([]) },
    );
    const { user, dialog } = await openSearch();
    await user.type(within(dialog).getByLabelText('Search term'), 'surv');
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 2_000 });
    expect(alert).toHaveTextContent('Requested filter(s) `foo` are not allowed.');
    expect(within(dialog).queryByRole('link')).not.toBeInTheDocument();
  });
});
