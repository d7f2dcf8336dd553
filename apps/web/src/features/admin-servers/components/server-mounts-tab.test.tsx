import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminServerAttributes } from '@/testing/admin-server-fixtures';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';

const panel = setUpPanelTestServer();
const admin = { user: pageUser({ root_admin: true }) };

const server = { object: 'server', attributes: adminServerAttributes() };

const related = (items: number[]) => ({
  object: 'list',
  data: items.map((id) => ({ object: 'x', attributes: { id, name: `#${id}` } })),
});
const mount = (id: number, name: string, eggs: number[], nodes: number[], servers: number[]) => ({
  object: 'mount',
  attributes: {
    id,
    uuid: `0b6f3c1e-0000-4000-8000-00000000000${id}`,
    name,
    description: null,
    source: `/srv/${name.toLowerCase()}`,
    target: `/mnt/${name.toLowerCase()}`,
    read_only: true,
    user_mountable: false,
    relationships: { eggs: related(eggs), nodes: related(nodes), servers: related(servers) },
  },
});

describe('/admin/servers/view/:id/mounts', () => {
  it("lists the mounts on the server's egg and node and attaches or detaches each", async () => {
    let servers: number[] = [];
    panel.on('GET /api/application/servers/7', () => ({ body: server }));
    panel.on('GET /api/application/mounts', () => ({
      body: {
        object: 'list',
        data: [
          mount(1, 'Maps', [2], [1], servers),
          mount(2, 'Elsewhere', [2], [9], []),
          mount(3, 'Cache', [2], [1], [7]),
        ],
      },
    }));
    panel.on('POST /api/application/mounts/1/servers', () => {
      servers = [7];
      return { body: mount(1, 'Maps', [2], [1], servers) };
    });
    const { user } = renderApp('/admin/servers/view/7/mounts', admin);
    const table = await screen.findByRole('table', { name: 'Mounts' });
    await within(table).findByText('Maps');
    expect(within(table).queryByText('Elsewhere')).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Detach Cache' })).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Attach Maps' }));
    expect(await within(table).findByRole('button', { name: 'Detach Maps' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        panel.requests.find((request) => request.url.startsWith('/api/application/mounts/1/servers'))?.body,
      ).toEqual({ servers: [7] }),
    );
  });
});
