import type { EggVariableAttributes } from '@aerie/shared/servers/server-wire';
import type { StartupResponse, StartupVariableResponse } from '@aerie/shared/startup/startup-wire';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startupLoadRetry } from '@/features/startup/api/startup';
import { apiClient, defaultRetryDelayMs } from '@/lib/api-client';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const variable = (overrides: Partial<EggVariableAttributes> = {}): EggVariableAttributes => ({
  name: 'Server Port',
  description: 'The port the game listens on.',
  env_variable: 'SERVER_PORT',
  default_value: '25565',
  server_value: '25566',
  is_editable: true,
  rules: 'required|integer|between:1024,65535',
  ...overrides,
});

const motd = variable({
  name: 'Message of the Day',
  description: 'Shown in the server list.',
  env_variable: 'MOTD',
  default_value: 'A Minecraft Server',
  server_value: null,
  rules: 'nullable|string|max:60',
});

const jarFile = variable({
  name: 'Server Jar File',
  description: 'The jar the server runs.',
  env_variable: 'SERVER_JARFILE',
  default_value: 'server.jar',
  server_value: 'paper.jar',
  is_editable: false,
  rules: 'required|string',
});

const images = { 'Java 21': 'ghcr.io/example/java:21', 'Java 17': 'ghcr.io/example/java:17' };

function serveStartup(
  variables: EggVariableAttributes[] = [variable(), motd, jarFile],
  dockerImages: Record<string, string> = images,
) {
  const body: StartupResponse = {
    object: 'list',
    data: variables.map((attributes) => ({ object: 'egg_variable', attributes })),
    meta: {
      startup_command: 'java -Dport=25566 -jar paper.jar',
      raw_startup_command: 'java -Dport={{SERVER_PORT}} -jar {{SERVER_JARFILE}}',
      docker_images: dockerImages,
    },
  };
  panel.on(`GET ${serverApi}/startup`, () => ({ body }));
}

/** Answers a variable change as the panel does: the variable as stored and the command it now gives. */
function serveVariableUpdate() {
  panel.on(`PUT ${serverApi}/startup/variable`, (request) => {
    const { key, value } = request.body as { key: string; value: string };
    const stored = [variable(), motd, jarFile].find((v) => v.env_variable === key) ?? variable();
    const body: StartupVariableResponse = {
      object: 'egg_variable',
      attributes: { ...stored, server_value: value === '' ? null : value },
      meta: {
        startup_command: `java -Dport=${value} -jar paper.jar`,
        raw_startup_command: 'java -Dport={{SERVER_PORT}} -jar {{SERVER_JARFILE}}',
      },
    };
    return { body };
  });
}

const openStartup = (options: Parameters<typeof openServerPage>[2] = {}) =>
  openServerPage(panel, 'startup', options);

const card = (name: string) => screen.getByLabelText(name).closest('.rounded-xl') as HTMLElement;

/** PUT calls the page has started (counted at fetch, so nothing is missed while the test server answers). */
const putsStarted = (fetchSpy: { mock: { calls: Parameters<typeof fetch>[] } }) =>
  fetchSpy.mock.calls.filter(([, init]) => init?.method === 'PUT');

describe('startup settings: page', () => {
  it('shows the command, the image choice and a card per variable', async () => {
    serveStartup();
    openStartup();
    expect(await screen.findByText('java -Dport=25566 -jar paper.jar')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Startup Settings' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Startup Settings');
    expect(screen.getByRole('heading', { name: 'Variables' })).toBeInTheDocument();

    const port = screen.getByLabelText('Server Port');
    expect(port).toHaveValue('25566');
    expect(port).toHaveAttribute('placeholder', '25565');
    expect(port).not.toHaveAttribute('readonly');
    expect(within(card('Server Port')).getByText('The port the game listens on.')).toBeInTheDocument();
    expect(within(card('Server Port')).queryByText('Read Only')).not.toBeInTheDocument();

    expect(screen.getByLabelText('Message of the Day')).toHaveValue('');
    expect(screen.getByLabelText('Message of the Day')).toHaveAttribute('placeholder', 'A Minecraft Server');

    expect(screen.getByLabelText('Server Jar File')).toHaveAttribute('readonly');
    expect(within(card('Server Jar File')).getByText('Read Only')).toBeInTheDocument();
  });

  it('shows "Oops!" with the reason when the data cannot load, and loads on retry', async () => {
    panel.on(`GET ${serverApi}/startup`, () =>
      errorEnvelope(403, 'AuthorizationException', 'This action is unauthorized.'),
    );
    const { user } = openStartup({ permissions: ['startup.update'] });
    expect(await screen.findByRole('heading', { name: 'Oops!' })).toBeInTheDocument();
    expect(screen.getByText('This action is unauthorized.')).toBeInTheDocument();
    serveStartup();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('java -Dport=25566 -jar paper.jar')).toBeInTheDocument();
  });

  describe('retries', () => {
    const saved = { ...startupLoadRetry };
    afterEach(() => {
      Object.assign(startupLoadRetry, saved);
      apiClient.configure({ retryDelayMs: defaultRetryDelayMs });
    });

    it('tries a failing load three more times before "Oops!"', async () => {
      apiClient.configure({ retryDelayMs: () => 10 });
      panel.on(`GET ${serverApi}/startup`, () => errorEnvelope(500, 'HttpException', 'Daemon down.'));
      openStartup();
      expect(await screen.findByRole('heading', { name: 'Oops!' })).toBeInTheDocument();
      expect(requestsTo(panel, 'GET', '/startup')).toHaveLength(4);
    });
  });
});

describe('startup settings: variables', () => {
  it('saves a variable once, 500 ms after the last key-up, and shows the new command', async () => {
    serveStartup();
    serveVariableUpdate();
    openStartup();
    const port = await screen.findByLabelText('Server Port');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    fireEvent.change(port, { target: { value: '2' } });
    fireEvent.keyUp(port);
    await act(() => vi.advanceTimersByTimeAsync(300));
    fireEvent.change(port, { target: { value: '25570' } });
    fireEvent.keyUp(port);
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(putsStarted(fetchSpy)).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    // Only promises run from here on, the fake clock stays at 500 ms (Testing Library's waitFor would wait on the
    // faked setTimeout for good).
    await vi.waitFor(() => expect(putsStarted(fetchSpy)).toHaveLength(1), { interval: 0 });
    vi.useRealTimers();

    await waitFor(() =>
      expect(requestsTo(panel, 'PUT', '/startup/variable').map((request) => request.body)).toEqual([
        { key: 'SERVER_PORT', value: '25570' },
      ]),
    );
    expect(await screen.findByText('java -Dport=25570 -jar paper.jar')).toBeInTheDocument();
  });

  it('does not save a read-only variable, nor any variable without startup.update', async () => {
    serveStartup();
    serveVariableUpdate();
    openStartup({ permissions: ['startup.read'] });
    const port = await screen.findByLabelText('Server Port');
    const jar = screen.getByLabelText('Server Jar File');
    expect(port).toHaveAttribute('readonly');
    expect(jar).toHaveAttribute('readonly');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (const input of [port, jar]) {
      fireEvent.change(input, { target: { value: '1' } });
      fireEvent.keyUp(input);
    }
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(putsStarted(fetchSpy)).toHaveLength(0);
  });

  it('does not save a read-only variable for the owner either', async () => {
    serveStartup();
    serveVariableUpdate();
    openStartup();
    const jar = await screen.findByLabelText('Server Jar File');
    expect(jar).toHaveAttribute('readonly');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(jar, { target: { value: 'other.jar' } });
    fireEvent.keyUp(jar);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(putsStarted(fetchSpy)).toHaveLength(0);
  });

  it("shows a refused value's message on that variable's card", async () => {
    serveStartup();
    panel.on(`PUT ${serverApi}/startup/variable`, () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The server port must be between 1024 and 65535.',
            meta: { source_field: 'value', rule: 'between' },
          },
        ],
      },
    }));
    const { user } = openStartup();
    const port = await screen.findByLabelText('Server Port');
    await user.clear(port);
    await user.type(port, '80');
    const message = await within(card('Server Port')).findByText(
      'The server port must be between 1024 and 65535.',
    );
    expect(message.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(
      within(card('Message of the Day')).queryByText('The server port must be between 1024 and 65535.'),
    ).not.toBeInTheDocument();
  });
});

describe('startup settings: docker image', () => {
  it("offers the egg's images when there are several and the server runs one of them", async () => {
    serveStartup();
    panel.on(`PUT ${serverApi}/settings/docker-image`, () => ({ status: 204 }));
    const { user } = openStartup();
    const select = await screen.findByLabelText('Docker Image');
    expect(select.tagName).toBe('SELECT');
    expect(select).toHaveValue('ghcr.io/example/java:21');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Java 21', 'Java 17']);
    expect(
      screen.getByText(
        'This is an advanced feature allowing you to select a Docker image to use when running this server instance.',
      ),
    ).toBeInTheDocument();

    await user.selectOptions(select, 'ghcr.io/example/java:17');
    await waitFor(() =>
      expect(requestsTo(panel, 'PUT', '/settings/docker-image').map((request) => request.body)).toEqual([
        { docker_image: 'ghcr.io/example/java:17' },
      ]),
    );
    await waitFor(() => expect(select).not.toBeDisabled());
    expect(select).toHaveValue('ghcr.io/example/java:17');
  });

  it('shows a refused image change at the top of the page and keeps the stored image', async () => {
    serveStartup();
    panel.on(`PUT ${serverApi}/settings/docker-image`, () =>
      errorEnvelope(
        400,
        'BadRequestHttpException',
        "This server's Docker image has been manually set by an administrator and cannot be updated.",
      ),
    );
    const { user } = openStartup();
    const select = await screen.findByLabelText('Docker Image');
    await user.selectOptions(select, 'ghcr.io/example/java:17');
    const flash = await screen.findByText(
      "This server's Docker image has been manually set by an administrator and cannot be updated.",
    );
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    await waitFor(() => expect(select).toHaveValue('ghcr.io/example/java:21'));
  });

  it('cannot be changed without startup.docker-image', async () => {
    serveStartup();
    openStartup({ permissions: ['startup.read', 'startup.update'] });
    expect(await screen.findByLabelText('Docker Image')).toBeDisabled();
  });

  it('shows an image an administrator set by hand as a disabled field with why', async () => {
    serveStartup(undefined, images);
    openStartup({ server: { docker_image: 'ghcr.io/acme/custom:1' } });
    const field = await screen.findByLabelText('Docker Image');
    expect(field.tagName).toBe('INPUT');
    expect(field).toBeDisabled();
    expect(field).toHaveValue('ghcr.io/acme/custom:1');
    expect(
      screen.getByText(
        "This server's Docker image has been manually set by an administrator and cannot be changed through this UI.",
      ),
    ).toBeInTheDocument();
  });

  it('shows the only image the egg offers as a disabled field', async () => {
    serveStartup(undefined, { 'Java 21': 'ghcr.io/example/java:21' });
    openStartup();
    const field = await screen.findByLabelText('Docker Image');
    expect(field.tagName).toBe('INPUT');
    expect(field).toBeDisabled();
    expect(field).toHaveValue('ghcr.io/example/java:21');
    expect(screen.queryByText(/manually set by an administrator/)).not.toBeInTheDocument();
  });
});
