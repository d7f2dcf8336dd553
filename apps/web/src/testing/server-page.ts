import type { PageUser } from '@aerie/shared/boot/page-globals';
import { pageUser, renderApp } from '@/testing/render-app';
import { type ServerFixture, serverDetail } from '@/testing/server-fixtures';
import type { TestServer } from '@/testing/test-server';

/** The server the page tests open: /server/abcd1234. */
export const pageServer: ServerFixture = {
  identifier: 'abcd1234',
  uuid: 'abcd1234-5678-4000-8000-000000000001',
  name: 'Skyblock',
  node: 'Frankfurt 1',
};

export const serverApi = '/api/client/servers/abcd1234';

interface OpenServerPageOptions {
  server?: ServerFixture;
  /** Omitted: the owner (every permission). */
  permissions?: string[];
  user?: PageUser;
}

/**
 * Serves the server (and its websocket credentials, which the area asks for on every page) and renders `page`
 * under /server/abcd1234. WebSocket must be stubbed (setUpPanelTestServer does it).
 */
export function openServerPage(
  panel: TestServer,
  page: string,
  { server = {}, permissions, user = pageUser() }: OpenServerPageOptions = {},
) {
  panel.on(`GET ${serverApi}`, () => ({
    body: serverDetail(
      { ...pageServer, ...server },
      permissions ? { owner: false, permissions } : { owner: true },
    ),
  }));
  panel.on(`GET ${serverApi}/websocket`, () => ({
    body: { data: { token: 'token-1', socket: 'wss://node.example.com:8080/api/servers/abcd1234/ws' } },
  }));
  return renderApp(page ? `/server/abcd1234/${page}` : '/server/abcd1234', { user });
}

/** The requests the page sent to `method path` under the server's API. */
export const requestsTo = (panel: TestServer, method: string, path: string) =>
  panel.requests.filter(
    (request) => request.method === method && request.url.split('?')[0] === `${serverApi}${path}`,
  );
