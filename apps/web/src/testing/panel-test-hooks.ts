import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { startTestServer, type TestServer } from '@/testing/test-server';

/**
 * Registers the hooks a server-area test file needs: a local panel stand-in (started once, reset before each test)
 * that the API client talks to, and the fake browser WebSocket. Call at the top level of the file; the returned
 * panel forwards to the started server, so tests use it as they would the server itself.
 */
export function setUpPanelTestServer(): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    apiClient.configure({ baseUrl: server.url });
  });
  afterAll(async () => {
    apiClient.configure({ baseUrl: '' });
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
    FakeWebSocket.reset();
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });
  afterEach(() => vi.unstubAllGlobals());

  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!server) throw new Error('the panel stand-in starts in beforeAll: use it inside tests or hooks');
      const value = Reflect.get(server, key);
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}
