import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminServerAttributes } from '@/testing/admin-server-fixtures';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';

const panel = setUpPanelTestServer();
const admin = { user: pageUser({ root_admin: true }) };

const nodes = {
  object: 'list',
  data: [
    { object: 'node', attributes: { id: 1, name: 'Local node' } },
    { object: 'node', attributes: { id: 2, name: 'Frankfurt' } },
  ],
};
const freeOnFrankfurt = {
  object: 'list',
  data: [
    { object: 'allocation', attributes: { id: 21, ip: '10.0.0.2', port: 25565, alias: null } },
    { object: 'allocation', attributes: { id: 22, ip: '10.0.0.2', port: 25566, alias: null } },
  ],
};
const transfer = (successful: boolean | null, failure: string | null = null) => ({
  object: 'server_transfer',
  attributes: { id: 4, successful, old_node: 1, new_node: 2, failure },
});
const serverWith = (relation: unknown) => {
  const attributes = adminServerAttributes();
  return {
    object: 'server',
    attributes: { ...attributes, relationships: { ...attributes.relationships, transfer: relation } },
  };
};

describe('/admin/servers/view/:id/manage: transfer', () => {
  it('moves the server to the chosen node and allocations, then shows it under way with a cancel', async () => {
    let current: unknown = { object: 'null_resource', attributes: null };
    panel.on('GET /api/application/servers/7', () => ({ body: serverWith(current) }));
    panel.on('GET /api/application/nodes', () => ({ body: nodes }));
    panel.on('GET /api/application/nodes/2/allocations', () => ({ body: freeOnFrankfurt }));
    panel.on('POST /api/application/servers/7/transfer', () => {
      current = transfer(null);
      return { status: 202 };
    });
    panel.on('POST /api/application/servers/7/transfer/cancel', () => {
      current = transfer(false, 'cancelled by an administrator');
      return { status: 204 };
    });
    const { user } = renderApp('/admin/servers/view/7/manage', admin);

    const box = (await screen.findByRole('heading', { name: 'Transfer' })).closest('div')
      ?.parentElement as HTMLElement;
    const node = await within(box).findByLabelText('Node');
    // The server's own node is not offered.
    expect(within(node).queryByRole('option', { name: 'Local node' })).not.toBeInTheDocument();
    await user.selectOptions(node, '2');
    await user.selectOptions(await within(box).findByLabelText('Primary allocation'), '21');
    await user.click(within(box).getByRole('checkbox', { name: '10.0.0.2:25566' }));
    await user.click(within(box).getByRole('button', { name: 'Transfer' }));

    expect(await screen.findByText('The transfer has started.')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        panel.requests.find((request) => request.url === '/api/application/servers/7/transfer')?.body,
      ).toEqual({
        node_id: 2,
        allocation_id: 21,
        allocation_additional: [22],
      }),
    );
    expect(await screen.findByText(/being transferred to Frankfurt/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel transfer' }));
    expect(await screen.findByText('The transfer was cancelled.')).toBeInTheDocument();
    expect(
      await screen.findByText('The last transfer failed: cancelled by an administrator'),
    ).toBeInTheDocument();
  });

  it('shows the refusal in the API’s words, and changes nothing', async () => {
    panel.on('GET /api/application/servers/7', () => ({
      body: serverWith({ object: 'null_resource', attributes: null }),
    }));
    panel.on('GET /api/application/nodes', () => ({ body: nodes }));
    panel.on('GET /api/application/nodes/2/allocations', () => ({ body: freeOnFrankfurt }));
    panel.on('POST /api/application/servers/7/transfer', () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'DisplayException',
            status: '422',
            detail: 'The target node does not have enough memory or disk for this server.',
          },
        ],
      },
    }));
    const { user } = renderApp('/admin/servers/view/7/manage', admin);
    await user.selectOptions(await screen.findByLabelText('Node'), '2');
    await user.selectOptions(await screen.findByLabelText('Primary allocation'), '21');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(
      await screen.findByText('The target node does not have enough memory or disk for this server.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/being transferred/)).not.toBeInTheDocument();
  });
});
