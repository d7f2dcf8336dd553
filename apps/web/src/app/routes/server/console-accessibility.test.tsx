import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { authenticate, openConsole } from '@/testing/console-page';
import type { FakeWebSocket } from '@/testing/fake-web-socket';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';

// The first test of the file compiles the console chunk (xterm.js); a busy two-core machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const daemon = (socket: FakeWebSocket, event: string, ...args: string[]) =>
  act(() => socket.receive(event, ...args));

/** The lines the log region holds, one element each. */
const lines = (log: HTMLElement) => Array.from(log.children, (line) => line.textContent);

const setStates = (socket: FakeWebSocket) =>
  socket.sentEvents().filter((event) => event.startsWith('set state'));

describe('console for keyboard users: the power buttons', () => {
  it('keep focus while the server changes state, and ignore presses while they do not apply', async () => {
    const { socket, user } = await openConsole(panel);
    const group = await screen.findByRole('group', { name: 'Power controls' });
    authenticate(socket, 'offline');
    const start = within(group).getByRole('button', { name: 'Start' });
    await waitFor(() => expect(start).not.toHaveAttribute('aria-disabled'));

    start.focus();
    await user.keyboard('{Enter}');
    expect(setStates(socket)).toEqual(['set state start']);
    await daemon(socket, 'status', 'starting');

    // Start no longer applies, but it is still the focused, focusable button (not `disabled`).
    expect(start).toHaveFocus();
    expect(start).toBeEnabled();
    expect(start).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    await user.click(start);
    expect(setStates(socket)).toEqual(['set state start']);

    // The tab order goes on from the focused button to Restart and Stop, which now apply.
    await user.tab();
    expect(within(group).getByRole('button', { name: 'Restart' })).toHaveFocus();
    await user.tab();
    const stop = within(group).getByRole('button', { name: 'Stop' });
    expect(stop).toHaveFocus();
    await user.keyboard(' ');
    expect(setStates(socket)).toEqual(['set state start', 'set state stop']);
  });

  it('keeps a never-applicable button (no state yet) reachable but inert', async () => {
    const { socket, user } = await openConsole(panel);
    const group = await screen.findByRole('group', { name: 'Power controls' });
    await daemon(socket, 'auth success');
    const restart = within(group).getByRole('button', { name: 'Restart' });
    expect(restart).toHaveAttribute('aria-disabled', 'true');
    await user.click(restart);
    expect(setStates(socket)).toEqual([]);
  });
});

describe('console for screen readers', () => {
  it('announces the state in a polite status region: Connecting..., then each state the daemon reports', async () => {
    const { socket } = await openConsole(panel);
    const status = await screen.findByRole('status', { name: 'Server status' });
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent('Connecting...');
    await daemon(socket, 'auth success');
    for (const state of ['offline', 'starting', 'running']) {
      await daemon(socket, 'status', state);
      expect(status).toHaveTextContent(new RegExp(`^${state}$`, 'i'));
    }
  });

  it('mirrors new console lines, without their colour codes, into a polite log of the last lines', async () => {
    const { socket } = await openConsole(panel);
    const log = await screen.findByRole('log', { name: 'Console output' });
    expect(log).toHaveAttribute('aria-live', 'polite');
    await daemon(socket, 'auth success');
    await daemon(
      socket,
      'console output',
      '\u001b[33m[12:00:01] [Server thread/INFO]: Starting minecraft server\n',
    );
    await daemon(socket, 'daemon message', 'Checking server disk space usage');
    await daemon(socket, 'status', 'running');
    await waitFor(() =>
      expect(lines(log)).toEqual([
        '[12:00:01] [Server thread/INFO]: Starting minecraft server',
        'container@aerie~ Checking server disk space usage',
        'container@aerie~ Server marked as running...',
      ]),
    );

    // A burst (the history on connect, a chatty server) keeps only the last lines.
    act(() => {
      for (let n = 1; n <= 120; n += 1) socket.receive('console output', `line ${n}`);
    });
    await waitFor(() => {
      expect(lines(log)).toHaveLength(20);
      expect(lines(log)[0]).toBe('line 101');
      expect(lines(log).at(-1)).toBe('line 120');
    });
  });
});
