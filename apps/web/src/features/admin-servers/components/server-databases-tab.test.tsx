import { serverDatabaseMessages } from '@aerie/shared/databases/databases-bodies';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = { user: pageUser({ root_admin: true }) };
const path = '/admin/servers/view/7/databases';
const databasesUrl = '/api/application/servers/7/databases';

const server = (databaseLimit: number | null = 2) => ({
  object: 'server',
  attributes: {
    id: 7,
    external_id: null,
    uuid: '6f1c2d3e-0000-4000-8000-000000000007',
    identifier: '6f1c2d3e',
    name: 'Survival',
    description: '',
    status: null,
    suspended: false,
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null, oom_disabled: true },
    feature_limits: { databases: databaseLimit, allocations: 1, backups: 2 },
    user: 3,
    node: 1,
    allocation: 11,
    nest: 1,
    egg: 2,
    container: { startup_command: 'node demo-server.mjs', image: 'node:20', installed: 1, environment: {} },
  },
});

const hostAttributes = (id: number, name: string, node: number | null, address = `10.0.0.${id}`) => ({
  id,
  name,
  host: address,
  port: 3306,
  username: 'aerie',
  node,
  driver: 'mysql',
  created_at: '2026-01-02T03:04:05+00:00',
  updated_at: '2026-01-02T03:04:05+00:00',
});

const hosts = [hostAttributes(1, 'Alpha MySQL', null), hostAttributes(2, 'Local MariaDB', 1)];

const database = (id: number, name: string, host = hosts[1] as ReturnType<typeof hostAttributes>) => ({
  object: 'server_database',
  attributes: {
    id,
    server: 7,
    host: host.id,
    database: `s7_${name}`,
    username: `u7_AbCdEfGh${id}x`.slice(0, 13),
    remote: '%',
    max_connections: 0,
    created_at: '2026-01-02T03:04:05+00:00',
    updated_at: '2026-01-02T03:04:05+00:00',
    relationships: { host: { object: 'database_host', attributes: host } },
  },
});

const list = (data: unknown[]) => ({
  body: {
    object: 'list',
    data,
    meta: {
      pagination: { total: data.length, count: data.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

function answer({ databases = [] as unknown[], limit = 2 as number | null } = {}) {
  panel.on('GET /api/application/servers/7', () => ({ body: server(limit) }));
  panel.on(`GET ${databasesUrl}`, () => ({ body: { object: 'list', data: databases } }));
  panel.on('GET /api/application/database-hosts', () =>
    list(hosts.map((attributes) => ({ object: 'database_host', attributes }))),
  );
}

const requestsTo = (method: string, url: string) =>
  panel.requests.filter((request) => request.method === method && request.url.split('?')[0] === url);

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('admin server Databases tab', () => {
  it("lists the server's databases with their host, from the tab menu", async () => {
    answer({ databases: [database(1, 'game'), database(2, 'logs', hosts[0])] });
    const { user } = renderApp('/admin/servers/view/7', admin);
    const tabs = await screen.findByRole('navigation', { name: 'Survival' });
    await user.click(within(tabs).getByRole('link', { name: 'Databases' }));

    const row = await rowOf('s7_game');
    expect(within(row).getByText('u7_AbCdEfGh1x')).toBeInTheDocument();
    expect(within(row).getByText('%')).toBeInTheDocument();
    expect(within(row).getByText('Local MariaDB')).toBeInTheDocument();
    expect(within(row).getByText('10.0.0.2:3306')).toBeInTheDocument();
    expect(within(row).getByText('Unlimited')).toBeInTheDocument();
    expect(within(await rowOf('s7_logs')).getByText('10.0.0.1:3306')).toBeInTheDocument();
    expect(
      screen.getByText('2 of 2 databases in use; the limit is set on the Build tab.'),
    ).toBeInTheDocument();
    expect(requestsTo('GET', databasesUrl)[0]?.url).toBe(`${databasesUrl}?include=host`);
  });

  it('says when the server has no databases', async () => {
    answer({ limit: null });
    renderApp(path, admin);
    expect(await screen.findByText('This server has no databases.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('0 databases in use; this server has no database limit.')).toBeInTheDocument();
  });

  it("checks the name, then creates on the host linked to the server's node and shows the new row", async () => {
    answer();
    panel.on(`POST ${databasesUrl}`, () => ({
      status: 201,
      body: {
        ...database(5, 'game'),
        meta: { resource: 'http://panel.test/api/application/servers/7/databases/5' },
      },
    }));
    const { user } = renderApp(path, admin);
    const host = await screen.findByLabelText('Database Host');
    await waitFor(() => expect(host).toHaveValue('2'));
    expect(screen.getByLabelText('Connections From')).toHaveValue('%');

    await user.type(screen.getByLabelText('Database'), 'my.game');
    await user.click(screen.getByRole('button', { name: 'Create Database' }));
    expect(
      await screen.findByText('The Database Name may only contain letters, numbers, and dashes.'),
    ).toBeInTheDocument();
    expect(requestsTo('POST', databasesUrl)).toEqual([]);

    await user.clear(screen.getByLabelText('Database'));
    await user.type(screen.getByLabelText('Database'), 'game');
    await user.click(screen.getByRole('button', { name: 'Create Database' }));
    expect(await screen.findByText('The database s7_game was created.')).toBeInTheDocument();
    expect(requestsTo('POST', databasesUrl)[0]?.body).toEqual({ database: 'game', remote: '%', host: 2 });
    expect(within(await rowOf('s7_game')).getByText('Local MariaDB')).toBeInTheDocument();
    expect(screen.getByLabelText('Database')).toHaveValue('');
  });

  it("shows the panel's 422 under its field", async () => {
    answer();
    panel.on(`POST ${databasesUrl}`, () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The selected Database Host Server ID is invalid.',
            meta: { source_field: 'host', rule: 'exists' },
          },
        ],
      },
    }));
    const { user } = renderApp(path, admin);
    await user.selectOptions(
      await screen.findByLabelText('Database Host'),
      await screen.findByRole('option', { name: 'Alpha MySQL (10.0.0.1:3306)' }),
    );
    await user.type(screen.getByLabelText('Database'), 'game');
    await user.click(screen.getByRole('button', { name: 'Create Database' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Database Host')).toHaveAccessibleDescription(
        'The selected Database Host Server ID is invalid.',
      ),
    );
    expect(requestsTo('POST', databasesUrl)[0]?.body).toEqual({ database: 'game', remote: '%', host: 1 });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('flashes a refusal over the limit', async () => {
    answer({ limit: 0 });
    panel.on(`POST ${databasesUrl}`, () =>
      errorEnvelope(400, 'TooManyDatabasesException', serverDatabaseMessages.tooMany),
    );
    const { user } = renderApp(path, admin);
    await user.type(await screen.findByLabelText('Database'), 'game');
    await waitFor(() => expect(screen.getByLabelText('Database Host')).toHaveValue('2'));
    await user.click(screen.getByRole('button', { name: 'Create Database' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(serverDatabaseMessages.tooMany);
    expect(screen.getByLabelText('Database')).toHaveValue('game');
  });

  it('resets a password only once confirmed', async () => {
    answer({ databases: [database(1, 'game')] });
    panel.on(`POST ${databasesUrl}/1/reset-password`, () => ({ status: 204 }));
    const { user } = renderApp(path, admin);
    await user.click(within(await rowOf('s7_game')).getByRole('button', { name: 'Reset Password' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    expect(dialog).toHaveTextContent('Reset the password of s7_game?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('POST', `${databasesUrl}/1/reset-password`)).toEqual([]);

    await user.click(within(await rowOf('s7_game')).getByRole('button', { name: 'Reset Password' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('The password of s7_game was reset.')).toBeInTheDocument();
    expect(requestsTo('POST', `${databasesUrl}/1/reset-password`)).toHaveLength(1);
  });

  it('deletes a database once confirmed and drops its row; a refusal keeps it', async () => {
    answer({ databases: [database(1, 'game'), database(2, 'logs')] });
    const hostFailed =
      'There was an error while trying to connect to the host or while executing a query: "connect ECONNREFUSED"';
    panel.on(`DELETE ${databasesUrl}/1`, () => errorEnvelope(502, 'HttpException', hostFailed));
    const { user } = renderApp(path, admin);
    await user.click(within(await rowOf('s7_game')).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Database' });
    expect(dialog).toHaveTextContent('Delete s7_game from its host?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(hostFailed);
    expect(screen.getByText('s7_game')).toBeInTheDocument();

    panel.on(`DELETE ${databasesUrl}/1`, () => ({ status: 204 }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(await rowOf('s7_game')).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Database' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The database s7_game was deleted.')).toBeInTheDocument();
    expect(screen.queryByText('s7_game')).not.toBeInTheDocument();
    expect(screen.getByText('s7_logs')).toBeInTheDocument();
    expect(requestsTo('DELETE', `${databasesUrl}/1`)).toHaveLength(2);
  });

  it('flashes an error when the databases cannot be loaded', async () => {
    answer();
    panel.on(`GET ${databasesUrl}`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    renderApp(path, admin);
    expect(await screen.findByRole('alert')).toHaveTextContent('This action is unauthorized.');
    expect(screen.queryByText('This server has no databases.')).not.toBeInTheDocument();
  });

  it('flashes an error when the hosts cannot be loaded', async () => {
    answer();
    panel.on('GET /api/application/database-hosts', () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    renderApp(path, admin);
    expect(await screen.findByRole('alert')).toHaveTextContent('This action is unauthorized.');
    expect(await screen.findByText('This server has no databases.')).toBeInTheDocument();
  });

  it('points to the database hosts page when there are none', async () => {
    answer();
    panel.on('GET /api/application/database-hosts', () => list([]));
    renderApp(path, admin);
    expect(await screen.findByRole('link', { name: 'Create one' })).toHaveAttribute(
      'href',
      '/admin/databases/new',
    );
    expect(screen.getByRole('button', { name: 'Create Database' })).toBeDisabled();
  });
});
