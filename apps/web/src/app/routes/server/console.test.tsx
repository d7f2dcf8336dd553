import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { authenticate, openConsole, terminalText } from '@/testing/console-page';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser } from '@/testing/render-app';

// The first test of the file compiles the console chunk (xterm.js); a busy two-core machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const daemon = (socket: FakeWebSocket, event: string, ...args: string[]) =>
  act(() => socket.receive(event, ...args));

describe('console page: connecting', () => {
  it('authenticates with the fetched token, then asks for the logs and stats', async () => {
    const { socket } = await openConsole(panel);
    expect(socket.url).toBe(
      'wss://node.example.com:8080/api/servers/abcd1234-5678-4000-8000-000000000001/ws',
    );
    expect(socket.sentEvents()).toEqual(['auth token-1']);
    await screen.findByTestId('console-terminal');
    await daemon(socket, 'auth success');
    await waitFor(() => expect(socket.sentEvents()).toEqual(['auth token-1', 'send logs', 'send stats']));
  });

  it('says Connecting... until the daemon reports a state, then shows the state', async () => {
    const { socket } = await openConsole(panel);
    const status = await screen.findByTestId('console-status');
    expect(status).toHaveTextContent('Connecting...');
    await daemon(socket, 'auth success');
    await daemon(socket, 'status', 'starting');
    expect(status).toHaveTextContent('starting');
    await daemon(socket, 'status', 'running');
    expect(status).toHaveTextContent('running');
  });

  it.each([
    [{ status: 'installing' as const }, 'Installing'],
    [{ is_transferring: true }, 'Transferring'],
  ])('shows %j as "%s" once a state is known', async (server, text) => {
    const { socket } = await openConsole(panel, { server, user: pageUser({ root_admin: true }) });
    const status = await screen.findByTestId('console-status');
    expect(status).toHaveTextContent('Connecting...');
    await daemon(socket, 'auth success');
    await daemon(socket, 'status', 'offline');
    expect(status).toHaveTextContent(text);
  });

  it('shows the trouble banner on a socket error and clears it once connected', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    act(() => socket.fail());
    expect(
      await screen.findByText("We're having some trouble connecting to your server, please wait..."),
    ).toBeVisible();
    await daemon(socket, 'auth success');
    expect(
      screen.queryByText("We're having some trouble connecting to your server, please wait..."),
    ).not.toBeInTheDocument();
  });

  it('tells the user to refresh when the daemon refuses the credentials for good', async () => {
    const { socket } = await openConsole(panel);
    await daemon(socket, 'auth success');
    await daemon(socket, 'jwt error', 'jwt: missing connect permission');
    expect(
      await screen.findByText(
        'There was an error validating the credentials provided for the websocket. Please refresh the page.',
      ),
    ).toBeInTheDocument();
  });

  it('fetches a new token when the old one expires, without a new socket', async () => {
    const { socket } = await openConsole(panel);
    await daemon(socket, 'auth success');
    await daemon(socket, 'token expiring');
    await waitFor(() => expect(socket.sentEvents()).toContain('auth token-2'));
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});

describe('console page: terminal', () => {
  it('writes console output as it comes, daemon messages after the prelude, and state changes', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    await daemon(socket, 'auth success');
    await daemon(
      socket,
      'console output',
      '\u001b[33m[12:00:01] [Server thread/INFO]: Starting minecraft server\n',
    );
    await daemon(
      socket,
      'daemon message',
      'Checking server disk space usage, this could take a few seconds...',
    );
    await daemon(socket, 'status', 'running');
    await daemon(socket, 'install output', 'Installing the server jar');
    await waitFor(() => {
      const text = terminalText();
      expect(text).toContain('[12:00:01] [Server thread/INFO]: Starting minecraft server');
      expect(text).toContain('container@aerie~ Checking server disk space usage');
      expect(text).toContain('container@aerie~ Server marked as running...');
      expect(text).toContain('Installing the server jar');
    });
  });

  it('starts afresh on a reconnect and asks for the logs again', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    await daemon(socket, 'auth success');
    await daemon(socket, 'console output', 'before the drop');
    await waitFor(() => expect(terminalText()).toContain('before the drop'));
    await daemon(socket, 'jwt error', 'jwt: exp claim is invalid');
    await waitFor(() => expect(socket.sentEvents()).toContain('auth token-2'));
    await daemon(socket, 'auth success');
    await waitFor(() => expect(terminalText()).not.toContain('before the drop'));
    expect(socket.sentEvents().filter((event) => event === 'send logs')).toHaveLength(2);
  });
});

describe('console page: power buttons', () => {
  const buttons = () => {
    const group = screen.getByRole('group', { name: 'Power controls' });
    return {
      start: within(group).queryByRole('button', { name: 'Start' }),
      restart: within(group).queryByRole('button', { name: 'Restart' }),
      stop: within(group).queryByRole('button', { name: /^(Stop|Kill)$/ }),
    };
  };

  it.each([
    [null, { start: false, restart: false, stop: false }],
    ['offline', { start: true, restart: true, stop: false }],
    ['starting', { start: false, restart: true, stop: true }],
    ['running', { start: false, restart: true, stop: true }],
    ['stopping', { start: false, restart: true, stop: true }],
  ])('with state %s enables %j', async (state, enabled) => {
    const { socket } = await openConsole(panel);
    await screen.findByRole('group', { name: 'Power controls' });
    await daemon(socket, 'auth success');
    if (state) await daemon(socket, 'status', state);
    const { start, restart, stop } = buttons();
    // A button that does not apply stays focusable: aria-disabled, not disabled.
    const applies = (button: HTMLElement | null) =>
      button?.matches(':enabled') && button.getAttribute('aria-disabled') !== 'true';
    expect({ start: applies(start), restart: applies(restart), stop: applies(stop) }).toEqual(enabled);
  });

  it('sends set state for each button, and Stop becomes Kill once the server is stopping', async () => {
    const { socket, user } = await openConsole(panel);
    await screen.findByRole('group', { name: 'Power controls' });
    authenticate(socket, 'offline');
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    await daemon(socket, 'status', 'running');
    await user.click(screen.getByRole('button', { name: 'Restart' }));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await daemon(socket, 'status', 'stopping');
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Kill' }));
    expect(socket.sentEvents().filter((event) => event.startsWith('set state'))).toEqual([
      'set state start',
      'set state restart',
      'set state stop',
      'set state kill',
    ]);
    await daemon(socket, 'status', 'offline');
    expect(screen.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true');
  });

  it.each([
    [['control.start'], ['Start']],
    [['control.restart', 'control.console'], ['Restart']],
    [['control.stop'], ['Stop']],
  ])('shows a subuser holding %j only %j', async (permissions, names) => {
    await openConsole(panel, { permissions });
    const group = await screen.findByRole('group', { name: 'Power controls' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(names);
  });

  it('hides the power controls from a subuser without any control permission', async () => {
    await openConsole(panel, { permissions: ['control.console', 'websocket.connect'] });
    await screen.findByTestId('console-terminal');
    expect(screen.queryByRole('group', { name: 'Power controls' })).not.toBeInTheDocument();
  });
});

describe('console page: commands', () => {
  it('sends the command on Enter and walks the history with the arrow keys', async () => {
    const { socket, user } = await openConsole(panel);
    const input = await screen.findByRole('textbox', { name: 'Console command input.' });
    expect(input).toBeDisabled();
    await daemon(socket, 'auth success');
    await daemon(socket, 'status', 'running');
    expect(input).toBeEnabled();

    await user.type(input, 'say hello{Enter}');
    expect(input).toHaveValue('');
    await user.type(input, '   {Enter}');
    await user.clear(input);
    await user.type(input, 'list{Enter}');
    expect(socket.sentEvents().filter((event) => event.startsWith('send command'))).toEqual([
      'send command say hello',
      'send command list',
    ]);

    await user.type(input, '{ArrowUp}');
    expect(input).toHaveValue('list');
    await user.type(input, '{ArrowUp}');
    expect(input).toHaveValue('say hello');
    await user.type(input, '{ArrowUp}');
    expect(input).toHaveValue('say hello');
    await user.type(input, '{ArrowDown}');
    expect(input).toHaveValue('list');
    await user.type(input, '{ArrowDown}');
    expect(input).toHaveValue('');
  });

  it('remembers the last 32 commands of the server', async () => {
    const { socket, user } = await openConsole(panel);
    const input = await screen.findByRole('textbox', { name: 'Console command input.' });
    await daemon(socket, 'auth success');
    for (let n = 1; n <= 34; n += 1) await user.type(input, `c${n}{Enter}`);
    const stored = JSON.parse(
      localStorage.getItem('abcd1234-5678-4000-8000-000000000001:command_history') ?? '[]',
    );
    expect(stored).toHaveLength(32);
    expect(stored[0]).toBe('c34');
    expect(stored.at(-1)).toBe('c3');
  });

  it('hides the command input from a subuser without control.console', async () => {
    await openConsole(panel, { permissions: ['control.start', 'websocket.connect'] });
    await screen.findByTestId('console-terminal');
    expect(screen.queryByRole('textbox', { name: 'Console command input.' })).not.toBeInTheDocument();
  });
});
