import type { PageUser } from '@aerie/shared/boot/page-globals';
import { act, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { pageUser, renderApp } from '@/testing/render-app';
import { type ServerFixture, serverDetail } from '@/testing/server-fixtures';
import type { TestServer } from '@/testing/test-server';

export const consoleServer: ServerFixture = {
  identifier: 'abcd1234',
  uuid: 'abcd1234-5678-4000-8000-000000000001',
  name: 'Skyblock',
  node: 'Frankfurt 1',
  limits: { cpu: 200, memory: 1024, disk: 0 },
  allocations: [{ ip: '10.1.1.1', port: 25565, is_default: true }],
};

export const socketAddress =
  'wss://node.example.com:8080/api/servers/abcd1234-5678-4000-8000-000000000001/ws';

interface OpenConsoleOptions {
  server?: ServerFixture;
  /** Omitted: the owner (every permission). */
  permissions?: string[];
  user?: PageUser;
  path?: string;
}

/**
 * Serves the server and websocket credentials (token-1, token-2, … one per call), renders the console page and
 * returns the page's socket once it is open, before `auth success`. WebSocket must be stubbed with FakeWebSocket.
 */
export async function openConsole(panel: TestServer, options: OpenConsoleOptions = {}) {
  const { server = {}, permissions, user = pageUser(), path = '/server/abcd1234' } = options;
  let issued = 0;
  panel.on('GET /api/client/servers/abcd1234', () => ({
    body: serverDetail(
      { ...consoleServer, ...server },
      permissions ? { owner: false, permissions } : { owner: true },
    ),
  }));
  panel.on('GET /api/client/servers/abcd1234/websocket', () => {
    issued += 1;
    return { body: { data: { token: `token-${issued}`, socket: socketAddress } } };
  });
  const rendered = renderApp(path, { user });
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
  const socket = FakeWebSocket.latest();
  act(() => socket.open());
  return { ...rendered, socket };
}

/** Authenticates the page's socket and reports the server's state, as the daemon does on a first auth. */
export function authenticate(socket: FakeWebSocket, status = 'offline') {
  act(() => {
    socket.receive('auth success');
    socket.receive('status', status);
  });
}

/** The text the terminal shows (xterm's DOM renderer draws the visible rows). */
export const terminalText = () =>
  screen.getByTestId('console-terminal').querySelector('.xterm-rows')?.textContent ?? '';
