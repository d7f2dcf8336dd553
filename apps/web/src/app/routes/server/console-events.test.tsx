import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { authenticate, consoleServer, openConsole, terminalText } from '@/testing/console-page';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { fileList, fileObject, listedNames } from '@/testing/files-page';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser } from '@/testing/render-app';
import { serverDetail } from '@/testing/server-fixtures';
import { errorEnvelope } from '@/testing/test-server';

// The first test of the file compiles the console chunk (xterm.js); a busy two-core machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const daemon = (socket: FakeWebSocket, event: string, ...args: string[]) =>
  act(() => socket.receive(event, ...args));

const stats = (figures: Partial<Record<string, unknown>>) =>
  JSON.stringify({
    memory_bytes: 0,
    memory_limit_bytes: 1024 * 1024 * 1024,
    cpu_absolute: 0,
    network: { rx_bytes: 0, tx_bytes: 0 },
    uptime: 0,
    state: 'running',
    disk_bytes: 0,
    ...figures,
  });

const serverRequests = () => panel.requests.filter((r) => r.url === '/api/client/servers/abcd1234');

describe('console page: live usage', () => {
  const row = (label: string) => {
    const card = screen.getByRole('heading', { name: 'Server Information' }).parentElement as HTMLElement;
    const term = within(card).getByText(label, { selector: 'dt' });
    return term.nextElementSibling?.textContent;
  };

  it('shows the limits until stats arrive, then the live figures against them', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByRole('heading', { name: 'Server Information' });
    expect(row('CPU')).toBe('200 %');
    expect(row('Memory')).toBe('1 GB');
    expect(row('Disk')).toBe('Unlimited');
    expect(screen.queryByText('Uptime')).not.toBeInTheDocument();

    authenticate(socket, 'running');
    await daemon(
      socket,
      'stats',
      stats({
        cpu_absolute: 12.5,
        memory_bytes: 512 * 1024 * 1024,
        disk_bytes: 3 * 1024 * 1024,
        uptime: 3_725_000,
        network: { rx_bytes: 2048, tx_bytes: 1024 },
      }),
    );
    expect(row('CPU')).toBe('12.50 % / 200 %');
    expect(row('Memory')).toBe('512 MB / 1 GB');
    expect(row('Disk')).toBe('3 MB / Unlimited');
    expect(row('Uptime')).toBe('1h 2m 5s');
    expect(row('Inbound')).toBe('2 kB');
    expect(row('Outbound')).toBe('1 kB');

    await daemon(socket, 'stats', stats({ state: 'offline' }));
    expect(row('Uptime')).toBe('Offline');
    // A broken stats frame changes nothing.
    await daemon(socket, 'stats', 'not json');
    expect(row('Uptime')).toBe('Offline');
  });

  it('charts CPU, memory and the network traffic between samples', async () => {
    const { socket } = await openConsole(panel);
    authenticate(socket, 'running');
    await screen.findByRole('img', { name: 'CPU Load over the last 20 samples' });
    await daemon(
      socket,
      'stats',
      stats({ cpu_absolute: 10, memory_bytes: 1024, network: { rx_bytes: 1000, tx_bytes: 0 } }),
    );
    await daemon(
      socket,
      'stats',
      stats({ cpu_absolute: 55.5, memory_bytes: 2048, network: { rx_bytes: 3048, tx_bytes: 1024 } }),
    );
    const cpu = screen
      .getByRole('img', { name: 'CPU Load over the last 20 samples' })
      .closest('figure') as HTMLElement;
    const network = screen
      .getByRole('img', { name: 'Network over the last 20 samples' })
      .closest('figure') as HTMLElement;
    expect(within(cpu).getByText('55.50 %')).toBeInTheDocument();
    expect(network.querySelector('[data-series="Inbound"]')).toHaveTextContent('Inbound2 kB');
    expect(network.querySelector('[data-series="Outbound"]')).toHaveTextContent('Outbound1 kB');
    expect(cpu.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(2);

    for (let n = 0; n < 25; n += 1) await daemon(socket, 'stats', stats({ cpu_absolute: n }));
    expect(cpu.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(20);
  });
});

describe('console page: install, transfer and restore events', () => {
  it('shows the installing notice to a root admin when an install starts, and reloads the server when it ends', async () => {
    const { socket } = await openConsole(panel, { user: pageUser({ root_admin: true }) });
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    expect(screen.queryByText(/This server is running its installer/)).not.toBeInTheDocument();
    await daemon(socket, 'install started', '');
    expect(await screen.findByText(/This server is running its installer/)).toBeInTheDocument();
    expect(screen.getByTestId('console-status')).toHaveTextContent('Installing');

    await daemon(socket, 'install completed', '');
    await waitFor(() => expect(serverRequests()).toHaveLength(2));
    await waitFor(() =>
      expect(screen.queryByText(/This server is running its installer/)).not.toBeInTheDocument(),
    );
  });

  it('reloads a server that was installing when the socket authenticates (an install that ended unseen)', async () => {
    const { socket } = await openConsole(panel, {
      user: pageUser({ root_admin: true }),
      server: { status: 'installing' },
    });
    expect(await screen.findByText(/This server is running its installer/)).toBeInTheDocument();
    // The install ended before the socket was there: the panel already has the server installed.
    panel.on('GET /api/client/servers/abcd1234', () => ({
      body: serverDetail(consoleServer, { owner: true }),
    }));
    authenticate(socket, 'offline');
    await waitFor(() => expect(serverRequests()).toHaveLength(2));
    await waitFor(() =>
      expect(screen.queryByText(/This server is running its installer/)).not.toBeInTheDocument(),
    );
    expect(screen.getByTestId('console-status')).toHaveTextContent('offline');
  });

  it('does not reload an installed server on authentication', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    await screen.findByText('offline');
    expect(serverRequests()).toHaveLength(1);
  });

  it('blocks the page for other users while installing and lets them back in when it is done', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    await daemon(socket, 'install started', '');
    expect(await screen.findByRole('heading', { name: 'Running Installer' })).toBeInTheDocument();
    await daemon(socket, 'install completed', '');
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
  });

  it('shows the transfer notice on "starting", drops it on "failure" and rebuilds the socket', async () => {
    const { socket } = await openConsole(panel, { user: pageUser({ root_admin: true }) });
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'running');
    await daemon(socket, 'transfer status', 'starting');
    expect(await screen.findByText(/This server is moving to another node/)).toBeInTheDocument();
    expect(FakeWebSocket.instances).toHaveLength(1);

    await daemon(socket, 'transfer status', 'failure');
    await waitFor(() =>
      expect(screen.queryByText(/This server is moving to another node/)).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    expect(socket.closedWith).toBe(1000);
    act(() => FakeWebSocket.latest().open());
    expect(FakeWebSocket.latest().sentEvents()).toEqual(['auth token-2']);
  });

  it('reloads the server when a transfer succeeds', async () => {
    const { socket } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'running');
    await daemon(socket, 'transfer status', 'success');
    await waitFor(() => expect(serverRequests()).toHaveLength(2));
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('clears the restoring status and returns to the console when a restore completes', async () => {
    const { socket, router } = await openConsole(panel, {
      server: { status: 'restoring_backup' },
      path: '/server/abcd1234/backups',
    });
    expect(await screen.findByRole('heading', { name: 'Restoring from Backup' })).toBeInTheDocument();
    authenticate(socket, 'offline');
    await daemon(socket, 'backup restore completed', '');
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234');
  });

  it('lists the restored files, not the ones read before the restore, once it completes', async () => {
    let names = ['before.txt'];
    panel.on('GET /api/client/servers/abcd1234/files/list', () => ({
      body: fileList(names.map((name) => fileObject({ name }))),
    }));
    const { socket, user } = await openConsole(panel, { path: '/server/abcd1234/files' });
    await waitFor(() => expect(listedNames()).toEqual(['before.txt']));
    authenticate(socket, 'offline');
    names = ['restored.txt'];
    await daemon(socket, 'backup restore completed', '');
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'File Manager' }));
    await waitFor(() => expect(listedNames()).toEqual(['restored.txt']));
  });
});

describe('console page: eula', () => {
  const prompt =
    '[12:00:02] [ServerMain/WARN]: You need to agree to the EULA in order to run the server. Go to eula.txt for more info.';

  it('asks to accept the EULA when the console shows the prompt; accepting writes eula.txt and restarts', async () => {
    panel.on('POST /api/client/servers/abcd1234/files/write', () => ({ status: 204 }));
    const { socket, user } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    await daemon(socket, 'console output', prompt);
    const dialog = await screen.findByRole('dialog', { name: 'Accept the Minecraft EULA' });
    await user.click(within(dialog).getByRole('button', { name: 'I Accept' }));
    await waitFor(() => expect(socket.sentEvents()).toContain('set state restart'));
    const write = panel.requests.find((r) => r.method === 'POST');
    expect(write?.url).toBe('/api/client/servers/abcd1234/files/write?file=eula.txt');
    expect(write?.body).toBe('eula=true');
    expect(write?.headers['content-type']).toBe('text/plain');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the error in the modal when the file cannot be written, and does not restart', async () => {
    panel.on('POST /api/client/servers/abcd1234/files/write', () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    const { socket, user } = await openConsole(panel);
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    await daemon(socket, 'console output', prompt);
    const dialog = await screen.findByRole('dialog', { name: 'Accept the Minecraft EULA' });
    await user.click(within(dialog).getByRole('button', { name: 'I Accept' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This action is unauthorized.');
    expect(socket.sentEvents()).not.toContain('set state restart');
  });

  it.each([
    ['while the server is running', {}, 'running'],
    ['on eggs without the eula feature', { egg_features: [] }, 'offline'],
  ])('ignores the prompt %s', async (_case, server, state) => {
    const { socket } = await openConsole(panel, { server });
    await screen.findByTestId('console-terminal');
    authenticate(socket, state);
    await daemon(socket, 'console output', prompt);
    await waitFor(() => expect(terminalText()).toContain('You need to agree to the EULA'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('console page: java_version', () => {
  const images = {
    'Java 8': 'ghcr.io/pterodactyl/yolks:java_8',
    'Java 17': 'ghcr.io/pterodactyl/yolks:java_17',
    'Java 21': 'ghcr.io/pterodactyl/yolks:java_21',
  };
  const java8 = { egg_features: ['eula', 'java_version'], docker_image: images['Java 8'] };
  const serveImages = () =>
    panel.on('GET /api/client/servers/abcd1234/startup', () => ({
      body: {
        object: 'list',
        data: [],
        meta: { startup_command: 'java -jar server.jar', raw_startup_command: '', docker_images: images },
      },
    }));

  it.each([
    'Error: LinkageError occurred while loading main class net.minecraft.server.Main\njava.lang.UnsupportedClassVersionError: net/minecraft/server/Main has been compiled by a more recent version of the Java Runtime (class file version 61.0)',
    'Exception in thread "main" java.lang.UnsupportedClassVersionError: org/bukkit/craftbukkit/Main : Unsupported major.minor version 52.0',
    '[12:00:00] [main/ERROR]: Minecraft 1.18 requires running the server with Java 17 or above.',
    '[12:00:00] [main/ERROR]: MINECRAFT 1.17 REQUIRES RUNNING THE SERVER WITH JAVA 16 OR ABOVE',
  ])(
    'offers the egg’s images on a Java version error, saves the one picked and restarts (%#)',
    async (line) => {
      serveImages();
      panel.on('PUT /api/client/servers/abcd1234/settings/docker-image', () => ({ status: 204 }));
      const { socket, user } = await openConsole(panel, { server: java8 });
      await screen.findByTestId('console-terminal');
      authenticate(socket, 'offline');
      await daemon(socket, 'console output', line);

      const dialog = await screen.findByRole('dialog', { name: 'Unsupported Java Version' });
      expect(dialog).toHaveTextContent(
        'This server is currently running an unsupported version of Java and cannot be started. Please select a supported version from the list below to continue starting the server.',
      );
      const select = await within(dialog).findByLabelText('Docker Image');
      expect(
        within(select)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Java 8', 'Java 17', 'Java 21']);
      // The image that just failed is not the one offered first.
      expect(select).toHaveValue(images['Java 17']);
      await user.selectOptions(select, 'Java 21');
      await user.click(within(dialog).getByRole('button', { name: 'Update Docker Image' }));

      await waitFor(() => expect(socket.sentEvents()).toContain('set state restart'));
      const put = panel.requests.find((r) => r.method === 'PUT');
      expect(put?.url).toBe('/api/client/servers/abcd1234/settings/docker-image');
      expect(put?.body).toEqual({ docker_image: images['Java 21'] });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
  );

  it('shows a refused change in the modal and does not restart', async () => {
    serveImages();
    panel.on('PUT /api/client/servers/abcd1234/settings/docker-image', () =>
      errorEnvelope(
        400,
        'DisplayException',
        'This server’s Docker image has been manually set by an administrator and cannot be updated.',
      ),
    );
    const { socket, user } = await openConsole(panel, { server: java8 });
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    await daemon(socket, 'console output', 'java.lang.UnsupportedClassVersionError: Main');
    const dialog = await screen.findByRole('dialog', { name: 'Unsupported Java Version' });
    await within(dialog).findByLabelText('Docker Image');
    await user.click(within(dialog).getByRole('button', { name: 'Update Docker Image' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('manually set by an administrator');
    expect(socket.sentEvents()).not.toContain('set state restart');
  });

  it('only explains the error to a user without startup.docker-image: no images, no update', async () => {
    const { socket } = await openConsole(panel, {
      server: java8,
      permissions: ['control.console', 'control.start', 'startup.read'],
    });
    await screen.findByTestId('console-terminal');
    authenticate(socket, 'offline');
    await daemon(socket, 'console output', 'java.lang.UnsupportedClassVersionError: Main');
    const dialog = await screen.findByRole('dialog', { name: 'Unsupported Java Version' });
    expect(dialog).toHaveTextContent(
      'This server is currently running an unsupported version of Java and cannot be started.',
    );
    expect(dialog).not.toHaveTextContent('Please select');
    expect(within(dialog).queryByLabelText('Docker Image')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Update Docker Image' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(panel.requests.some((r) => r.url.endsWith('/startup'))).toBe(false);
  });

  it.each([
    ['while the server is running', { ...java8 }, 'running'],
    ['on eggs without the java_version feature', { egg_features: ['eula'] }, 'offline'],
  ])('ignores the error %s', async (_case, server, state) => {
    const { socket } = await openConsole(panel, { server });
    await screen.findByTestId('console-terminal');
    authenticate(socket, state);
    await daemon(socket, 'console output', 'java.lang.UnsupportedClassVersionError: Main');
    await waitFor(() => expect(terminalText()).toContain('UnsupportedClassVersionError'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
