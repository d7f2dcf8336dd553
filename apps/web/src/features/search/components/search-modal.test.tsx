import { searchMessages } from '@aerie/shared/search/search.schema';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { pageUser, renderApp } from '@/testing/render-app';
import { startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

const serverItem = (n: number) => ({
  object: 'server',
  attributes: {
    identifier: `srv0000${n}`,
    name: `Survival ${n}`,
    node: 'Node A',
    relationships: {
      allocations: {
        data: [
          {
            attributes: {
              ip: '10.0.0.5',
              ip_alias: n === 1 ? 'play.example.com' : null,
              port: 25565 + n,
              is_default: true,
            },
          },
          { attributes: { ip: '10.0.0.5', ip_alias: null, port: 30000, is_default: false } },
        ],
      },
    },
  },
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
    body: { object: 'list', data: [1, 2, 3, 4, 5, 6, 7].map(serverItem) },
  }));
});

async function openSearch(rootAdmin = false) {
  const view = renderApp('/', { user: pageUser({ root_admin: rootAdmin }) });
  await view.user.click(await screen.findByRole('button', { name: 'Search' }));
  return { ...view, dialog: await screen.findByRole('dialog', { name: 'Search' }) };
}

describe('server search', () => {
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
    expect(server.requests).toHaveLength(0);
  });

  it('shows at most five matches with their default address and node, linking to the server', async () => {
    const { user, dialog } = await openSearch();
    await user.type(within(dialog).getByLabelText('Search term'), 'surv');
    const links = await within(dialog).findAllByRole('link', {}, { timeout: 2_000 });
    expect(links).toHaveLength(5);
    expect(links[0]).toHaveAttribute('href', '/server/srv00001');
    expect(links[0]).toHaveTextContent('Survival 1play.example.com:25566Node A');
    expect(links[1]).toHaveTextContent('Survival 210.0.0.5:25567Node A');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/client?filter%5B*%5D=surv']);
  });

  it('searches all servers for root admins', async () => {
    const { user, dialog } = await openSearch(true);
    await user.type(within(dialog).getByLabelText('Search term'), 'surv');
    await waitFor(
      () =>
        expect(server.requests.map((r) => r.url)).toEqual(['/api/client?filter%5B*%5D=surv&type=admin-all']),
      {
        timeout: 2_000,
      },
    );
  });
});
