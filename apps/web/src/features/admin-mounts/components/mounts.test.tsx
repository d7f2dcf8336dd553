import { mountFormMessages } from '@aerie/shared/mounts/mounts-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const related = (object: string, items: { id: number; name: string }[]) => ({
  object: 'list',
  data: items.map((attributes) => ({ object, attributes })),
});

const mountItem = (id: number, name: string, overrides: Record<string, unknown> = {}) => ({
  object: 'mount',
  attributes: {
    id,
    uuid: `0b6f3c1e-0000-4000-8000-00000000000${id}`,
    name,
    description: null,
    source: '/srv/shared/maps',
    target: '/mnt/maps',
    read_only: true,
    user_mountable: false,
    relationships: { eggs: related('egg', []), nodes: related('node', []) },
    ...overrides,
  },
});

const list = (...items: unknown[]) => ({
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

function choices() {
  panel.on('GET /api/application/nodes', () =>
    list({ object: 'node', attributes: { id: 1, name: 'Alpha node' } }),
  );
  panel.on('GET /api/application/nests', () =>
    list({ object: 'nest', attributes: { id: 1, name: 'Minecraft' } }),
  );
  panel.on('GET /api/application/nests/1/eggs', () =>
    list({
      object: 'egg',
      attributes: { id: 5, name: 'Paper', nest: 1, docker_images: {}, startup: '', relationships: {} },
    }),
  );
}

const requests = (method: string, url: string) =>
  panel.requests.filter((request) => request.method === method && request.url.split('?')[0] === url);

describe('/admin/mounts', () => {
  it('lists the mounts with their paths, access and where they may be used', async () => {
    panel.on('GET /api/application/mounts', () =>
      list(
        mountItem(1, 'Maps', {
          relationships: { eggs: related('egg', [{ id: 5, name: 'Paper' }]), nodes: related('node', []) },
        }),
        mountItem(2, 'Cache', {
          read_only: false,
          user_mountable: true,
          source: '/srv/cache',
          target: '/srv/cache',
        }),
      ),
    );
    renderApp('/admin/mounts', { user: admin });
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Maps');
    expect(rows[1]).toHaveTextContent('/srv/shared/maps');
    expect(rows[1]).toHaveTextContent('Read Only');
    expect(rows[2]).toHaveTextContent('Writable · User Mountable');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Maps' })).toHaveAttribute(
      'href',
      '/admin/mounts/1',
    );
  });
});

describe('/admin/mounts/new', () => {
  it('checks the paths before sending, shows the panel’s 422 under its field, then creates', async () => {
    const view = renderApp('/admin/mounts/new', { user: admin });
    await view.user.type(await screen.findByLabelText('Name'), 'Maps');
    await view.user.type(screen.getByLabelText('Source'), 'srv/maps');
    await view.user.type(screen.getByLabelText('Target'), '/mnt/maps');
    await view.user.click(screen.getByRole('button', { name: 'Create Mount' }));
    expect(await screen.findByText(mountFormMessages.absolute)).toBeInTheDocument();
    expect(requests('POST', '/api/application/mounts')).toEqual([]);

    panel.on('POST /api/application/mounts', () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The selected target is invalid.',
            meta: { source_field: 'target', rule: 'not_in' },
          },
        ],
      },
    }));
    await view.user.clear(screen.getByLabelText('Source'));
    await view.user.type(screen.getByLabelText('Source'), '/srv/maps');
    await view.user.click(screen.getByRole('button', { name: 'Create Mount' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Target')).toHaveAccessibleDescription('The selected target is invalid.'),
    );

    choices();
    panel.on('POST /api/application/mounts', () => ({ status: 201, body: mountItem(7, 'Maps') }));
    panel.on('GET /api/application/mounts/7', () => ({ body: mountItem(7, 'Maps') }));
    await view.user.click(screen.getByRole('button', { name: 'Create Mount' }));
    expect(await screen.findByText('The mount was created.')).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/admin/mounts/7');
    expect(requests('POST', '/api/application/mounts').at(-1)?.body).toEqual({
      name: 'Maps',
      description: null,
      source: '/srv/maps',
      target: '/mnt/maps',
      read_only: true,
      user_mountable: false,
    });
  });
});

describe('/admin/mounts/:id', () => {
  it('adds an egg and removes a node, and shows why a deletion was refused', async () => {
    choices();
    let mount = mountItem(3, 'Maps', {
      relationships: { eggs: related('egg', []), nodes: related('node', [{ id: 1, name: 'Alpha node' }]) },
    });
    panel.on('GET /api/application/mounts/3', () => ({ body: mount }));
    panel.on('POST /api/application/mounts/3/eggs', () => {
      mount = mountItem(3, 'Maps', {
        relationships: {
          eggs: related('egg', [{ id: 5, name: 'Paper' }]),
          nodes: related('node', [{ id: 1, name: 'Alpha node' }]),
        },
      });
      return { body: mount };
    });
    panel.on('DELETE /api/application/mounts/3/nodes/1', () => ({ status: 204 }));
    panel.on('DELETE /api/application/mounts/3', () =>
      errorEnvelope(
        400,
        'HasActiveServersException',
        'A mount must have no servers attached to it in order to be deleted.',
      ),
    );
    const { user } = renderApp('/admin/mounts/3', { user: admin });
    await screen.findByRole('option', { name: 'Minecraft / Paper' });
    await user.selectOptions(screen.getByLabelText('Add an egg'), 'Minecraft / Paper');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('list', { name: 'Eggs' })).toHaveTextContent('Minecraft / Paper');
    expect(requests('POST', '/api/application/mounts/3/eggs')[0]?.body).toEqual({ eggs: [5] });

    await user.click(screen.getByRole('button', { name: 'Remove Alpha node' }));
    await waitFor(() => expect(requests('DELETE', '/api/application/mounts/3/nodes/1')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this mount?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('A mount must have no servers attached to it in order to be deleted.'),
    ).toBeInTheDocument();
  });
});
