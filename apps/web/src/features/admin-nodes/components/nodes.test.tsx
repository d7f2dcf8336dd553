import { nodeMessages } from '@aerie/shared/nodes/nodes-bodies';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const nodeAttributes = (id: number, name: string, overrides: Record<string, unknown> = {}) => ({
  id,
  uuid: `node-uuid-${id}`,
  public: true,
  name,
  description: null,
  location_id: 1,
  fqdn: `${name.toLowerCase().replace(/ /g, '-')}.example.com`,
  scheme: 'https',
  behind_proxy: false,
  maintenance_mode: false,
  memory: 8192,
  memory_overallocate: 0,
  disk: 102400,
  disk_overallocate: 0,
  upload_size: 100,
  daemon_listen: 8081,
  daemon_sftp: 2022,
  daemon_base: '/srv/daemon',
  created_at: '2026-01-02T03:04:05+00:00',
  updated_at: '2026-01-02T03:04:05+00:00',
  allocated_resources: { memory: 2048, disk: 10240 },
  relationships: {
    location: { object: 'location', attributes: { id: 1, short: 'us.nyc', long: 'New York' } },
  },
  ...overrides,
});

const nodeItem = (...args: Parameters<typeof nodeAttributes>) => ({
  object: 'node',
  attributes: nodeAttributes(...args),
});

const page = <T,>(data: T[], total = data.length, totalPages = 1) => ({
  body: {
    object: 'list',
    data,
    meta: {
      pagination: { total, count: data.length, per_page: 50, current_page: 1, total_pages: totalPages },
    },
  },
});

const overview = (nodes: { id: number; online: boolean }[]) => ({
  body: {
    object: 'overview',
    attributes: {
      version: '0.1.0',
      nodes: nodes.map(({ id, online }) => ({
        id,
        name: `Node ${id}`,
        fqdn: 'x',
        maintenance_mode: false,
        online,
        version: online ? '0.1.0' : null,
        cpu_count: null,
        memory_bytes: null,
      })),
      servers: { total: 0, by_status: {} },
    },
  },
});

const locations = () =>
  page([
    { object: 'location', attributes: { id: 1, short: 'us.nyc', long: 'New York' } },
    { object: 'location', attributes: { id: 2, short: 'eu.fra', long: null } },
  ]);

const configuration = {
  debug: false,
  uuid: 'node-uuid-3',
  token_id: 'TOKENID',
  token: 'SECRET',
  api: { host: '0.0.0.0', port: 8081 },
  remote: 'https://panel.example.com',
  aerie: { env: { DAEMON_PORT: '8081', DAEMON_TOKEN: 'SECRET' } },
};

function servePanel(node = nodeItem(3, 'Far Node')) {
  panel.on('GET /api/application/overview', () => overview([{ id: 3, online: true }]));
  panel.on('GET /api/application/locations', locations);
  panel.on('GET /api/application/nodes/3', () => ({ body: node }));
  panel.on('GET /api/application/nodes/3/configuration', () => ({ body: configuration }));
}

const bodiesOf = (method: string) => panel.requests.filter((request) => request.method === method);

describe('/admin/nodes', () => {
  it('lists nodes with location, address, memory and disk given out, and live health', async () => {
    panel.on('GET /api/application/nodes', () =>
      page([nodeItem(1, 'Local Node', { maintenance_mode: true }), nodeItem(2, 'Far Node')]),
    );
    panel.on('GET /api/application/overview', () =>
      overview([
        { id: 1, online: true },
        { id: 2, online: false },
      ]),
    );
    renderApp('/admin/nodes', { user: admin });
    const local = (await screen.findByRole('link', { name: 'Local Node' })).closest('tr') as HTMLElement;
    expect(screen.getByRole('link', { name: 'Local Node' })).toHaveAttribute('href', '/admin/nodes/view/1');
    expect(await within(local).findByText('Online')).toBeInTheDocument();
    expect(local).toHaveTextContent('Maintenance');
    expect(local).toHaveTextContent('us.nyc');
    expect(local).toHaveTextContent('https://local-node.example.com:8081');
    expect(local).toHaveTextContent('2 GB / 8 GB');
    expect(local).toHaveTextContent('10 GB / 100 GB');
    const far = screen.getByRole('link', { name: 'Far Node' }).closest('tr') as HTMLElement;
    expect(within(far).getByText('Offline')).toBeInTheDocument();
    expect(panel.requests.find((request) => request.url.startsWith('/api/application/nodes'))?.url).toBe(
      '/api/application/nodes?page=1&include=location',
    );
  });

  describe('creating a node', () => {
    async function openForm() {
      panel.on('GET /api/application/nodes', () => page([]));
      panel.on('GET /api/application/overview', () => overview([]));
      panel.on('GET /api/application/locations', locations);
      const view = renderApp('/admin/nodes', { user: admin });
      await view.user.click(await screen.findByRole('button', { name: 'Create Node' }));
      const dialog = await screen.findByRole('dialog', { name: 'Create Node' });
      await within(dialog).findByRole('option', { name: 'us.nyc (New York)' });
      return { ...view, dialog };
    }

    it('checks every field before sending anything', async () => {
      const { dialog, user } = await openForm();
      await user.clear(within(dialog).getByLabelText('Daemon Port'));
      await user.type(within(dialog).getByLabelText('Daemon Port'), '70000');
      await user.clear(within(dialog).getByLabelText('Upload Limit (MB)'));
      await user.type(within(dialog).getByLabelText('Upload Limit (MB)'), '1.5');
      await user.type(within(dialog).getByLabelText('Name'), 'bad/name');
      await user.click(within(dialog).getByRole('button', { name: 'Create Node' }));
      expect(await within(dialog).findByText('The name format is invalid.')).toBeInTheDocument();
      expect(within(dialog).getByText('The Location field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The fqdn field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The memory field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The disk field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The daemon listen must be between 1 and 65535.')).toBeInTheDocument();
      expect(within(dialog).getByText('The File Upload Size Limit must be an integer.')).toBeInTheDocument();
      expect(bodiesOf('POST')).toHaveLength(0);
    });

    async function fillAndSubmit() {
      const view = await openForm();
      const { dialog, user } = view;
      await user.type(within(dialog).getByLabelText('Name'), 'New Node');
      await user.selectOptions(within(dialog).getByLabelText('Location'), '2');
      await user.type(within(dialog).getByLabelText('FQDN'), 'node.example.com');
      await user.type(within(dialog).getByLabelText('Total Memory (MiB)'), '4096');
      await user.type(within(dialog).getByLabelText('Total Disk Space (MiB)'), '50000');
      await user.clear(within(dialog).getByLabelText('Memory Over-Allocation (%)'));
      await user.type(within(dialog).getByLabelText('Memory Over-Allocation (%)'), '-1');
      await user.click(within(dialog).getByRole('button', { name: 'Create Node' }));
      return view;
    }

    it('shows a 422 of the panel under its field', async () => {
      panel.on('POST /api/application/nodes', () => ({
        status: 422,
        body: {
          errors: [
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The selected Location is invalid.',
              meta: { source_field: 'location_id', rule: 'exists' },
            },
          ],
        },
      }));
      const { dialog } = await fillAndSubmit();
      expect(await within(dialog).findByText('The selected Location is invalid.')).toBeInTheDocument();
    });

    it('sends every field and opens the new node on its configuration tab', async () => {
      servePanel(nodeItem(3, 'New Node'));
      panel.on('POST /api/application/nodes', () => ({ status: 201, body: nodeItem(3, 'New Node') }));
      await fillAndSubmit();
      expect(await screen.findByRole('heading', { name: 'New Node' })).toBeInTheDocument();
      expect(bodiesOf('POST')[0]?.body).toEqual({
        name: 'New Node',
        location_id: 2,
        fqdn: 'node.example.com',
        scheme: 'https',
        behind_proxy: false,
        public: true,
        maintenance_mode: false,
        memory: 4096,
        memory_overallocate: -1,
        disk: 50000,
        disk_overallocate: 0,
        upload_size: 100,
        daemon_listen: 8081,
        daemon_sftp: 2022,
        daemon_base: '/var/lib/pterodactyl/volumes',
      });
      expect(screen.getByRole('link', { name: 'Configuration' })).toHaveAttribute('aria-current', 'page');
      expect(screen.getAllByRole('alert')[0]).toHaveTextContent('The node was created.');
    });
  });

  describe('a node page', () => {
    it('saves the settings with every field again', async () => {
      servePanel();
      panel.on('PATCH /api/application/nodes/3', () => ({
        body: nodeItem(3, 'Far Node', { maintenance_mode: true, upload_size: 512 }),
      }));
      const { user } = renderApp('/admin/nodes/view/3', { user: admin });
      const upload = await screen.findByLabelText('Upload Limit (MB)');
      await screen.findByRole('option', { name: 'eu.fra' });
      // The node's own location shows once the list arrives, not "Choose a location…".
      const location = screen.getByRole('combobox', { name: 'Location' }) as HTMLSelectElement;
      expect(location.value).toBe('1');
      expect(location.selectedOptions[0]?.textContent).toBe('us.nyc (New York)');
      await user.clear(upload);
      await user.type(upload, '2000');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(
        await screen.findByText('The File Upload Size Limit must be between 1 and 1024.'),
      ).toBeInTheDocument();
      await user.clear(upload);
      await user.type(upload, '512');
      await user.click(screen.getByRole('switch', { name: 'Maintenance Mode' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText(/The node was updated/)).toBeInTheDocument();
      expect(bodiesOf('PATCH')[0]?.body).toEqual({
        name: 'Far Node',
        location_id: 1,
        fqdn: 'far-node.example.com',
        scheme: 'https',
        behind_proxy: false,
        public: true,
        maintenance_mode: true,
        memory: 8192,
        memory_overallocate: 0,
        disk: 102400,
        disk_overallocate: 0,
        upload_size: 512,
        daemon_listen: 8081,
        daemon_sftp: 2022,
        daemon_base: '/srv/daemon',
      });
    });

    it('resets the daemon token with reset_secret once confirmed', async () => {
      servePanel();
      panel.on('PATCH /api/application/nodes/3', () => ({ body: nodeItem(3, 'Far Node') }));
      const { user } = renderApp('/admin/nodes/view/3', { user: admin });
      await user.click(await screen.findByRole('button', { name: 'Reset Token' }));
      const dialog = await screen.findByRole('dialog', { name: 'Reset Daemon Token' });
      await user.click(within(dialog).getByRole('button', { name: 'Yes, reset token' }));
      expect(await screen.findByText(/The daemon token was reset/)).toBeInTheDocument();
      expect(bodiesOf('PATCH')[0]?.body).toMatchObject({ name: 'Far Node', reset_secret: true });
    });

    it('shows the panel refusing to delete a node with servers', async () => {
      servePanel();
      panel.on('DELETE /api/application/nodes/3', () =>
        errorEnvelope(400, 'HasActiveServersException', nodeMessages.hasServers),
      );
      const { user } = renderApp('/admin/nodes/view/3', { user: admin });
      await user.click(await screen.findByRole('button', { name: 'Delete Node' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Node' });
      await user.click(within(dialog).getByRole('button', { name: 'Yes, delete node' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(nodeMessages.hasServers);
    });

    it('shows the configuration, copies it, and says how to start the daemon from it', async () => {
      servePanel();
      const { user } = renderApp('/admin/nodes/view/3/configuration', { user: admin });
      const block = await screen.findByLabelText('Configuration File');
      expect(block).toHaveTextContent('"DAEMON_TOKEN": "SECRET"');
      expect(screen.getByText('DAEMON_CONFIG=/etc/aerie/node.json npx aerie daemon')).toBeInTheDocument();
      expect(screen.getByText('DAEMON_DATA_DIR')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Copy configuration' }));
      expect(await screen.findByRole('status')).toHaveTextContent(
        'Copied. Save it as /etc/aerie/node.json on the node, then run: DAEMON_CONFIG=/etc/aerie/node.json npx aerie daemon',
      );
      expect(JSON.parse(await navigator.clipboard.readText())).toEqual(configuration);
      expect(screen.queryByText(/This is the node npm start runs/)).not.toBeInTheDocument();
    });

    it("says aerie up's own node needs nothing installed: npm start already runs its daemon", async () => {
      servePanel();
      panel.on('GET /api/application/nodes/3/configuration', () => ({
        body: { ...configuration, aerie: { ...configuration.aerie, started_by: 'aerie up' } },
      }));
      renderApp('/admin/nodes/view/3/configuration', { user: admin });
      expect(
        await screen.findByText(
          "This is the node npm start runs on this machine: its daemon already runs with this configuration, and npm start gives it the current one at every start. There is nothing to install; copy it only to run this node's daemon on another machine.",
        ),
      ).toBeInTheDocument();
    });

    describe('allocations', () => {
      const allocation = (id: number, port: number, server: { id: number; name: string } | null = null) => ({
        object: 'allocation',
        attributes: {
          id,
          ip: '10.0.0.5',
          alias: id === 11 ? 'play.example.com' : null,
          port,
          notes: null,
          assigned: server !== null,
          relationships: {
            server: server
              ? { object: 'server', attributes: { ...server, identifier: 'abcd1234' } }
              : { object: 'null_resource', attributes: null },
          },
        },
      });

      function openAllocations() {
        servePanel();
        panel.on('GET /api/application/nodes/3/allocations', () =>
          page([
            allocation(10, 25565, { id: 7, name: 'Survival' }),
            allocation(11, 25566),
            allocation(12, 25567),
            allocation(13, 25568),
          ]),
        );
        return renderApp('/admin/nodes/view/3/allocations', { user: admin });
      }

      it('lists them; assigned ones show their server and cannot be selected', async () => {
        openAllocations();
        const taken = await screen.findByRole('checkbox', { name: 'Select 10.0.0.5:25565' });
        expect(taken).toBeDisabled();
        expect(screen.getByRole('link', { name: 'Survival' })).toHaveAttribute(
          'href',
          '/admin/servers/view/7',
        );
        expect(screen.getByRole('checkbox', { name: 'Select 10.0.0.5:25566' })).toBeEnabled();
        expect(screen.getByText('play.example.com')).toBeInTheDocument();
        expect(panel.requests.find((request) => request.url.includes('/allocations'))?.url).toBe(
          '/api/application/nodes/3/allocations?page=1&per_page=50&include=server',
        );
      });

      it('deletes the selected ones, one DELETE each, once confirmed', async () => {
        panel.on('DELETE /api/application/nodes/3/allocations/11', () => ({ status: 204 }));
        panel.on('DELETE /api/application/nodes/3/allocations/13', () => ({ status: 204 }));
        const { user } = openAllocations();
        await user.click(await screen.findByRole('checkbox', { name: 'Select 10.0.0.5:25566' }));
        await user.click(screen.getByRole('checkbox', { name: 'Select 10.0.0.5:25568' }));
        await user.click(screen.getByRole('button', { name: 'Delete 2 selected' }));
        const dialog = await screen.findByRole('dialog', { name: 'Delete Allocations' });
        expect(dialog).toHaveTextContent('Delete the 2 selected allocations?');
        await user.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));
        expect(await screen.findByText('2 allocations were deleted.')).toBeInTheDocument();
        expect(bodiesOf('DELETE').map((request) => request.url)).toEqual([
          '/api/application/nodes/3/allocations/11',
          '/api/application/nodes/3/allocations/13',
        ]);
      });

      it('selects every unassigned one of the page at once', async () => {
        const { user } = openAllocations();
        await user.click(
          await screen.findByRole('checkbox', { name: 'Select every unassigned allocation on this page' }),
        );
        expect(screen.getByRole('button', { name: 'Delete 3 selected' })).toBeEnabled();
      });

      it('checks the ports before adding, then sends the entries as strings', async () => {
        panel.on('POST /api/application/nodes/3/allocations', () => ({ status: 204 }));
        const { user } = openAllocations();
        const ports = await screen.findByLabelText('Ports');
        await user.click(screen.getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('The ip field is required.')).toBeInTheDocument();
        expect(screen.getByText('The ports field is required.')).toBeInTheDocument();
        await user.type(screen.getByLabelText('IP Address'), '10.0.0.5');
        await user.type(ports, '25565, abc');
        expect(await screen.findByText(nodeMessages.invalidPortMapping('abc'))).toBeInTheDocument();
        await user.clear(ports);
        await user.type(ports, '80');
        expect(await screen.findByText(nodeMessages.portOutOfRange)).toBeInTheDocument();
        expect(bodiesOf('POST')).toHaveLength(0);

        await user.clear(ports);
        await user.type(ports, '25565, 25570-25580');
        await user.type(screen.getByLabelText('Alias'), 'play.example.com');
        await user.click(screen.getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('The allocations were added.')).toBeInTheDocument();
        expect(bodiesOf('POST')[0]?.body).toEqual({
          ip: '10.0.0.5',
          alias: 'play.example.com',
          ports: ['25565', '25570-25580'],
        });
        await waitFor(() => expect(ports).toHaveValue(''));
      });

      it('shows a refusal of the panel as a flash', async () => {
        panel.on('POST /api/application/nodes/3/allocations', () =>
          errorEnvelope(400, 'CidrOutOfRangeException', nodeMessages.cidrOutOfRange),
        );
        const { user } = openAllocations();
        await user.type(await screen.findByLabelText('IP Address'), '10.0.0.0/8');
        await user.type(screen.getByLabelText('Ports'), '25565');
        await user.click(screen.getByRole('button', { name: 'Add' }));
        expect(await screen.findByRole('alert')).toHaveTextContent(nodeMessages.cidrOutOfRange);
      });
    });
  });
});
