import type { ServerMountAttributes } from '@aerie/shared/mounts/mounts-wire';
import type { StartupResponse } from '@aerie/shared/startup/startup-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const mount = (overrides: Partial<ServerMountAttributes>): ServerMountAttributes => ({
  uuid: '0b6f3c1e-0000-4000-8000-000000000001',
  name: 'Maps',
  description: 'Shared maps',
  target: '/mnt/maps',
  read_only: true,
  user_mountable: true,
  attached: false,
  ...overrides,
});
const maps = mount({});
const cache = mount({
  uuid: '0b6f3c1e-0000-4000-8000-000000000002',
  name: 'Cache',
  description: null,
  target: '/srv/cache',
  read_only: false,
  user_mountable: false,
  attached: true,
});

function serve(mounts: ServerMountAttributes[]) {
  const startup: StartupResponse = {
    object: 'list',
    data: [],
    meta: { startup_command: 'node demo.mjs', raw_startup_command: 'node demo.mjs', docker_images: {} },
  };
  panel.on(`GET ${serverApi}/startup`, () => ({ body: startup }));
  panel.on(`GET ${serverApi}/mounts`, () => ({
    body: { object: 'list', data: mounts.map((attributes) => ({ object: 'server_mount', attributes })) },
  }));
}

describe('startup settings: mounts', () => {
  it('lists the mounts, attaches one users may attach, and shows who attached the others', async () => {
    serve([maps, cache]);
    panel.on(`POST ${serverApi}/mounts/${maps.uuid}`, () => {
      serve([{ ...maps, attached: true }, cache]);
      return { status: 204 };
    });
    const { user } = openServerPage(panel, 'startup');
    const list = await screen.findByRole('list', { name: 'Mounts' });
    const first = within(list).getByRole('listitem', { name: 'Maps' });
    expect(within(first).getByText('/mnt/maps · Read Only')).toBeInTheDocument();
    expect(within(first).getByText('Shared maps')).toBeInTheDocument();
    const second = within(list).getByRole('listitem', { name: 'Cache' });
    expect(within(second).getByText('Attached by an administrator')).toBeInTheDocument();
    expect(within(second).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(first).getByRole('button', { name: 'Attach' }));
    expect(await within(first).findByRole('button', { name: 'Detach' })).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', `/mounts/${maps.uuid}`)).toHaveLength(1);
  });

  it('shows why a change was refused at the top of the page', async () => {
    serve([{ ...maps, attached: true }]);
    panel.on(`DELETE ${serverApi}/mounts/${maps.uuid}`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    const { user } = openServerPage(panel, 'startup');
    await user.click(await screen.findByRole('button', { name: 'Detach' }));
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
  });

  it('shows nothing, and asks for nothing, without mount.read', async () => {
    serve([maps]);
    openServerPage(panel, 'startup', { permissions: ['startup.read'] });
    expect(await screen.findByText('node demo.mjs')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Mounts' })).not.toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/mounts')).toHaveLength(0);
  });

  it('lists without buttons for a user who may only read them', async () => {
    serve([maps]);
    openServerPage(panel, 'startup', { permissions: ['startup.read', 'mount.read'] });
    const list = await screen.findByRole('list', { name: 'Mounts' });
    expect(within(list).getByText('Maps')).toBeInTheDocument();
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
  });

  it('leaves the section out when the server has no mounts', async () => {
    serve([]);
    openServerPage(panel, 'startup');
    expect(await screen.findByText('node demo.mjs')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(panel, 'GET', '/mounts')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Mounts' })).not.toBeInTheDocument();
  });
});
