import { serverDatabaseMessages } from '@aerie/shared/databases/databases-bodies';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { databaseItem, databaseList } from '@/testing/database-fixtures';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const survival = databaseItem(
  { id: 'Ab3xYz9Q', name: 's42_survival', username: 'u42_ab3xYz9Qw1', connections_from: '%' },
  'p@ss=word.1',
);
const stats = databaseItem(
  {
    id: 'Qw1Er2Ty',
    name: 's42_player_stats',
    username: 'u42_Qw1Er2TyUi',
    connections_from: '10.0.%',
    host: { address: '192.168.1.20', port: 3307 },
  },
  'Zx9!Cv8+Bn7',
);
/** The same databases as a user without database.view_password gets them: no password. */
const withoutPassword = (item: typeof survival) => databaseItem(item.attributes);

const serveDatabases = (items = [survival, stats]) =>
  panel.on(`GET ${serverApi}/databases`, () => ({ body: databaseList(items) }));

/** Opens /server/abcd1234/databases with a database limit (3 unless told) and the permissions (owner: all). */
const openDatabases = ({ permissions, limit = 3 }: { permissions?: string[]; limit?: number } = {}) =>
  openServerPage(panel, 'databases', { permissions, server: { feature_limits: { databases: limit } } });

const row = (name: string) => screen.getByRole('listitem', { name });
const findRow = (name: string) => screen.findByRole('listitem', { name });
const count = (used: number, limit: number) =>
  `${used} of ${limit} databases have been allocated to this server.`;

// Each part percent-encoded: the password's @ and = would otherwise break the URL.
const survivalJdbc = 'jdbc:mysql://u42_ab3xYz9Qw1:p%40ss%3Dword.1@db.example.com:3306/s42_survival';

describe('databases: list', () => {
  it('shows each database: name, endpoint, connections from, username and, for the owner, its password', async () => {
    serveDatabases();
    openDatabases();
    const first = await findRow('s42_survival');
    expect(screen.getByRole('heading', { name: 'Databases' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Databases');
    expect(requestsTo(panel, 'GET', '/databases').map((request) => request.url)).toEqual([
      `${serverApi}/databases?include=password`,
    ]);

    expect(within(first).getByRole('button', { name: 's42_survival' })).toBeInTheDocument();
    expect(within(first).getByText('db.example.com:3306')).toBeInTheDocument();
    expect(within(first).getByText('u42_ab3xYz9Qw1')).toBeInTheDocument();
    expect(within(first).getByText('%')).toBeInTheDocument();
    expect(within(first).getByText('p@ss=word.1')).toBeInTheDocument();
    expect(first).toHaveTextContent(/Endpoint.*Connections from.*Username.*Password/);
    expect(
      within(first).getByRole('button', { name: 'Connection details for s42_survival' }),
    ).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Delete s42_survival' })).toBeInTheDocument();

    const second = row('s42_player_stats');
    expect(within(second).getByText('192.168.1.20:3307')).toBeInTheDocument();
    expect(within(second).getByText('10.0.%')).toBeInTheDocument();
    expect(within(second).getByText('Zx9!Cv8+Bn7')).toBeInTheDocument();
  });

  it('asks for no passwords and shows none without database.view_password', async () => {
    serveDatabases([withoutPassword(survival)]);
    openDatabases({ permissions: ['database.read'] });
    const first = await findRow('s42_survival');
    expect(requestsTo(panel, 'GET', '/databases').map((request) => request.url)).toEqual([
      `${serverApi}/databases`,
    ]);
    expect(within(first).getByText('u42_ab3xYz9Qw1')).toBeInTheDocument();
    expect(first).not.toHaveTextContent('Password');
    expect(
      within(first).getByRole('button', { name: 'Connection details for s42_survival' }),
    ).toBeInTheDocument();
    // No database.delete: no delete button.
    expect(within(first).queryByRole('button', { name: 'Delete s42_survival' })).not.toBeInTheDocument();
  });

  it('shows no password a panel sent to a user without database.view_password', async () => {
    serveDatabases();
    openDatabases({ permissions: ['database.read', 'database.delete'] });
    const first = await findRow('s42_survival');
    expect(within(first).queryByText('p@ss=word.1')).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Delete s42_survival' })).toBeInTheDocument();
  });

  it('says so when the server has no databases, with the count and New Database', async () => {
    serveDatabases([]);
    openDatabases({ limit: 2 });
    expect(await screen.findByText('It looks like you have no databases')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Databases' })).not.toBeInTheDocument();
    expect(screen.getByText(count(0, 2))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Database' })).toBeInTheDocument();
    expect(screen.queryByText('Databases cannot be created for this server')).not.toBeInTheDocument();
  });

  it('with a limit of 0 says databases cannot be created, with no count and no New Database', async () => {
    serveDatabases([]);
    openDatabases({ limit: 0 });
    expect(await screen.findByText('Databases cannot be created for this server')).toBeInTheDocument();
    expect(screen.queryByText('It looks like you have no databases')).not.toBeInTheDocument();
    expect(screen.queryByText(/databases have been allocated/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Database' })).not.toBeInTheDocument();
  });

  it('shows the count against the limit, and New Database only below the limit and with database.create', async () => {
    serveDatabases();
    const below = openDatabases({ limit: 3 });
    expect(await screen.findByText(count(2, 3))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Database' })).toBeInTheDocument();
    below.unmount();

    const full = openDatabases({ limit: 2 });
    expect(await screen.findByText(count(2, 2))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Database' })).not.toBeInTheDocument();
    full.unmount();

    openDatabases({ limit: 3, permissions: ['database.read', 'database.view_password'] });
    expect(await screen.findByText(count(2, 3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Database' })).not.toBeInTheDocument();
  });

  it('flashes a failed load under databases', async () => {
    panel.on(`GET ${serverApi}/databases`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    openDatabases();
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.queryByRole('button', { name: 'New Database' })).not.toBeInTheDocument();
  });
});

describe('databases: create', () => {
  const openModal = async (items = [survival]) => {
    serveDatabases(items);
    const opened = openDatabases();
    await opened.user.click(await screen.findByRole('button', { name: 'New Database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new database' });
    return { ...opened, dialog };
  };

  it('has Database Name and Connections From (% by default)', async () => {
    const { dialog } = await openModal();
    expect(within(dialog).getByLabelText('Database Name')).toHaveValue('');
    expect(within(dialog).getByLabelText('Database Name')).toHaveAccessibleDescription(
      'A descriptive name for your database instance.',
    );
    expect(within(dialog).getByLabelText('Connections From')).toHaveValue('%');
    expect(within(dialog).getByRole('button', { name: 'Create Database' })).toBeInTheDocument();
  });

  it.each([
    ['', '%', 'Database Name', 'A database name must be provided.'],
    ['ab', '%', 'Database Name', 'Database name must be at least 3 characters.'],
    ['n'.repeat(49), '%', 'Database Name', 'Database name must not exceed 48 characters.'],
    [
      'my db',
      '%',
      'Database Name',
      'Database name should only contain alphanumeric characters, underscores, dashes, and/or periods.',
    ],
    ['mydb', '', 'Connections From', 'A connection value must be provided.'],
    ['mydb', '10.0.0.0.1', 'Connections From', 'A valid connection address must be provided.'],
    ['mydb', 'localhost', 'Connections From', 'A valid connection address must be provided.'],
    ['mydb', '1234.%', 'Connections From', 'A valid connection address must be provided.'],
  ])('refuses name %j from %j: %s says "%s", and sends nothing', async (name, remote, field, message) => {
    const { dialog, user } = await openModal();
    const nameField = within(dialog).getByLabelText('Database Name');
    const remoteField = within(dialog).getByLabelText('Connections From');
    if (name) {
      await user.click(nameField);
      await user.paste(name);
    }
    await user.clear(remoteField);
    if (remote) await user.type(remoteField, remote);
    await user.click(within(dialog).getByRole('button', { name: 'Create Database' }));
    const invalid = within(dialog).getByLabelText(field);
    await waitFor(() => expect(invalid).toHaveAccessibleDescription(message));
    expect(invalid).toHaveAttribute('aria-invalid', 'true');
    expect(requestsTo(panel, 'POST', '/databases')).toHaveLength(0);
  });

  it('creates the database: the request, then its row with the password and the new count', async () => {
    const created = databaseItem(
      { id: 'Mn4Bv5Cx', name: 's42_minigames', username: 'u42_Mn4Bv5CxZa', connections_from: '10.0.%' },
      'Fresh!Pass1',
    );
    panel.on(`POST ${serverApi}/databases`, () => ({ body: created }));
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByLabelText('Database Name'), 'minigames');
    await user.clear(within(dialog).getByLabelText('Connections From'));
    await user.type(within(dialog).getByLabelText('Connections From'), '10.0.%');
    await user.click(within(dialog).getByRole('button', { name: 'Create Database' }));

    const added = await findRow('s42_minigames');
    expect(within(added).getByText('Fresh!Pass1')).toBeInTheDocument();
    expect(screen.getByText(count(2, 3))).toBeInTheDocument();
    const posts = requestsTo(panel, 'POST', '/databases');
    expect(posts.map((request) => [request.url, request.body])).toEqual([
      [`${serverApi}/databases?include=password`, { database: 'minigames', remote: '10.0.%' }],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the panel’s 422 inside the modal and keeps it open', async () => {
    panel.on(`POST ${serverApi}/databases`, () =>
      errorEnvelope(
        422,
        'ValidationException',
        'The database may only contain letters, numbers, and dashes.',
      ),
    );
    const { dialog, user } = await openModal();
    // Periods pass the page's rule; the panel's alpha_dash refuses them.
    await user.type(within(dialog).getByLabelText('Database Name'), 'my.db');
    await user.click(within(dialog).getByRole('button', { name: 'Create Database' }));
    const flash = await within(dialog).findByText(
      'The database may only contain letters, numbers, and dashes.',
    );
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.getByRole('dialog', { name: 'Create new database' })).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/databases')[0]?.body).toEqual({ database: 'my.db', remote: '%' });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('shows the panel’s 400 inside the modal', async () => {
    panel.on(`POST ${serverApi}/databases`, () =>
      errorEnvelope(400, 'NoSuitableDatabaseHostException', serverDatabaseMessages.noSuitableHost),
    );
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByLabelText('Database Name'), 'minigames');
    await user.click(within(dialog).getByRole('button', { name: 'Create Database' }));
    const flash = await within(dialog).findByText(serverDatabaseMessages.noSuitableHost);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    // The page's own area shows nothing of it.
    expect(screen.getAllByText(serverDatabaseMessages.noSuitableHost)).toHaveLength(1);
  });
});

describe('databases: connection details', () => {
  const openDetails = async (options: Parameters<typeof openDatabases>[0] = {}, items = [survival]) => {
    serveDatabases(items);
    const opened = openDatabases(options);
    await opened.user.click(
      within(await findRow('s42_survival')).getByRole('button', {
        name: 'Connection details for s42_survival',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Database connection details' });
    return { ...opened, dialog };
  };

  it('shows the endpoint, origin, username, password and the JDBC string, and copies on click', async () => {
    const { dialog, user } = await openDetails();
    expect(dialog).toHaveTextContent(
      /Endpoint\s*db\.example\.com:3306\s*Connections from\s*%\s*Username\s*u42_ab3xYz9Qw1\s*Password\s*p@ss=word\.1\s*JDBC Connection String/,
    );
    const jdbc = within(dialog).getByRole('button', { name: survivalJdbc });
    await user.click(jdbc);
    expect(await screen.findByRole('status')).toHaveTextContent(`Copied "${survivalJdbc}" to clipboard.`);
    expect(await navigator.clipboard.readText()).toBe(survivalJdbc);
    // A URL that parses back to the real credentials.
    const parsed = new URL(survivalJdbc.slice('jdbc:'.length));
    expect([decodeURIComponent(parsed.username), decodeURIComponent(parsed.password)]).toEqual([
      'u42_ab3xYz9Qw1',
      'p@ss=word.1',
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'u42_ab3xYz9Qw1' }));
    expect(await navigator.clipboard.readText()).toBe('u42_ab3xYz9Qw1');
    await user.click(within(dialog).getByRole('button', { name: 'db.example.com:3306' }));
    expect(await navigator.clipboard.readText()).toBe('db.example.com:3306');
    expect(within(dialog).getByRole('button', { name: 'Rotate Password' })).toBeInTheDocument();
  });

  it('leaves the password out of the modal and the JDBC string without database.view_password', async () => {
    const { dialog } = await openDetails({ permissions: ['database.read'] }, [withoutPassword(survival)]);
    expect(dialog).not.toHaveTextContent('Password');
    expect(
      within(dialog).getByText('jdbc:mysql://u42_ab3xYz9Qw1@db.example.com:3306/s42_survival'),
    ).toBeInTheDocument();
    // No database.update: no rotation.
    expect(within(dialog).queryByRole('button', { name: 'Rotate Password' })).not.toBeInTheDocument();
  });

  it('rotates the password: the new one shows in the modal, its JDBC string and the row', async () => {
    panel.on(`POST ${serverApi}/databases/Ab3xYz9Q/rotate-password`, () => ({
      body: databaseItem(survival.attributes, 'N3w=Secret^2'),
    }));
    const { dialog, user } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Rotate Password' }));
    expect(await within(dialog).findByText('N3w=Secret^2')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'jdbc:mysql://u42_ab3xYz9Qw1:N3w%3DSecret%5E2@db.example.com:3306/s42_survival',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText('p@ss=word.1')).not.toBeInTheDocument();
    expect(within(row('s42_survival')).getByText('N3w=Secret^2')).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/databases/Ab3xYz9Q/rotate-password')).toHaveLength(1);
  });

  it('shows a refused rotation inside the modal', async () => {
    panel.on(`POST ${serverApi}/databases/Ab3xYz9Q/rotate-password`, () =>
      errorEnvelope(502, 'HttpException', serverDatabaseMessages.hostFailed),
    );
    const { dialog, user } = await openDetails();
    await user.click(within(dialog).getByRole('button', { name: 'Rotate Password' }));
    const flash = await within(dialog).findByText(serverDatabaseMessages.hostFailed);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(within(dialog).getByText('p@ss=word.1')).toBeInTheDocument();
  });

  it('closes with Close', async () => {
    const { dialog, user } = await openDetails();
    // The modal's close icon is also "Close": this is the button that reads it.
    const close = within(dialog)
      .getAllByRole('button', { name: 'Close' })
      .find((button) => button.textContent === 'Close');
    expect(close).toBeDefined();
    await user.click(close as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('databases: delete', () => {
  const openDelete = async (name = 's42_survival', items = [survival, stats]) => {
    serveDatabases(items);
    const opened = openDatabases();
    await opened.user.click(within(await findRow(name)).getByRole('button', { name: `Delete ${name}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm database deletion' });
    return { ...opened, dialog };
  };

  it('asks for the name, refuses anything else, and deletes with the full name', async () => {
    panel.on(`DELETE ${serverApi}/databases/Ab3xYz9Q`, () => ({ status: 204 }));
    const { dialog, user } = await openDelete();
    expect(dialog).toHaveTextContent(
      'Deleting a database is a permanent action, it cannot be undone. This will permanently delete the s42_survival database and remove all associated data.',
    );
    const confirm = within(dialog).getByLabelText('Confirm database name');
    const submit = within(dialog).getByRole('button', { name: 'Delete Database' });
    expect(submit).toBeDisabled();

    await user.type(confirm, 's42_surviva');
    await user.tab();
    expect(confirm).toHaveAccessibleDescription('The database name must be provided.');
    expect(submit).toBeDisabled();
    expect(requestsTo(panel, 'DELETE', '/databases/Ab3xYz9Q')).toHaveLength(0);

    await user.type(confirm, 'l');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 's42_survival' })).not.toBeInTheDocument(),
    );
    expect(requestsTo(panel, 'DELETE', '/databases/Ab3xYz9Q')).toHaveLength(1);
    expect(row('s42_player_stats')).toBeInTheDocument();
    expect(screen.getByText(count(1, 3))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('takes the name after its first underscore, all of it', async () => {
    panel.on(`DELETE ${serverApi}/databases/Qw1Er2Ty`, () => ({ status: 204 }));
    const { dialog, user } = await openDelete('s42_player_stats');
    const confirm = within(dialog).getByLabelText('Confirm database name');
    const submit = within(dialog).getByRole('button', { name: 'Delete Database' });
    // Only up to the second underscore is not the name.
    await user.type(confirm, 'player');
    await user.tab();
    expect(confirm).toHaveAccessibleDescription('The database name must be provided.');
    expect(submit).toBeDisabled();

    await user.type(confirm, '_stats');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 's42_player_stats' })).not.toBeInTheDocument(),
    );
    expect(requestsTo(panel, 'DELETE', '/databases/Qw1Er2Ty')).toHaveLength(1);
  });

  it('shows a refused delete inside the confirmation and keeps the row', async () => {
    panel.on(`DELETE ${serverApi}/databases/Ab3xYz9Q`, () =>
      errorEnvelope(502, 'HttpException', serverDatabaseMessages.hostFailed),
    );
    const { dialog, user } = await openDelete();
    await user.type(within(dialog).getByLabelText('Confirm database name'), 'survival');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Database' }));
    const flash = await within(dialog).findByText(serverDatabaseMessages.hostFailed);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(row('s42_survival')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm database deletion' })).toBeInTheDocument();
  });
});
