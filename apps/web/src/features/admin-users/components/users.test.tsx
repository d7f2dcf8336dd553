import { adminRoleMessages } from '@aerie/shared/admin-roles/admin-roles-bodies';
import { userMessages } from '@aerie/shared/users/users-bodies';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const serverItem = (id: number, name: string) => ({
  object: 'server',
  attributes: { id, uuid: `uuid-${id}`, identifier: `ident${id}0`, name, status: null, suspended: false },
});

const userAttributes = (id: number, username: string, overrides: Record<string, unknown> = {}) => ({
  id,
  external_id: null,
  uuid: `user-uuid-${id}`,
  username,
  email: `${username}@example.com`,
  first_name: 'First',
  last_name: 'Last',
  language: 'en',
  root_admin: false,
  '2fa': false,
  created_at: '2026-01-02T03:04:05+00:00',
  updated_at: '2026-01-02T03:04:05+00:00',
  relationships: { servers: { object: 'list', data: [] as unknown[] } },
  ...overrides,
});

const userItem = (...args: Parameters<typeof userAttributes>) => ({
  object: 'user',
  attributes: userAttributes(...args),
});

const userList = (...users: ReturnType<typeof userItem>[]) => ({
  body: {
    object: 'list',
    data: users,
    meta: {
      pagination: {
        total: users.length,
        count: users.length,
        per_page: 50,
        current_page: 1,
        total_pages: 1,
        links: {},
      },
    },
  },
});

const validation = (entries: { field: string; detail: string; rule?: string }[]) => ({
  status: 422,
  body: {
    errors: entries.map(({ field, detail, rule = 'unique' }) => ({
      code: 'ValidationException',
      status: '422',
      detail,
      meta: { source_field: field, rule },
    })),
  },
});

const listRequests = () =>
  panel.requests.filter(
    (request) => request.method === 'GET' && request.url.startsWith('/api/application/users?'),
  );

describe('/admin/users', () => {
  it('lists users with their 2FA, admin flag and server count, linking each to its page', async () => {
    panel.on('GET /api/application/users', () =>
      userList(
        userItem(1, 'casey', {
          root_admin: true,
          '2fa': true,
          relationships: { servers: { object: 'list', data: [serverItem(7, 'Survival')] } },
        }),
        userItem(2, 'robin'),
        // The first admin `aerie up` makes has no names.
        userItem(3, 'admin', { first_name: null, last_name: null }),
        userItem(4, 'solo', { last_name: null }),
      ),
    );
    renderApp('/admin/users', { user: admin });
    const casey = (await screen.findByRole('link', { name: 'casey' })).closest('tr') as HTMLElement;
    expect(screen.getByRole('link', { name: 'casey' })).toHaveAttribute('href', '/admin/users/view/1');
    expect(casey).toHaveTextContent('casey@example.com');
    expect(within(casey).getAllByText('Yes')).toHaveLength(2);
    expect(casey.lastElementChild).toHaveTextContent('1');
    const robin = screen.getByRole('link', { name: 'robin' }).closest('tr') as HTMLElement;
    expect(within(robin).getAllByText('No')).toHaveLength(2);
    expect(robin).toHaveTextContent('First Last');
    const nameless = screen.getByRole('link', { name: 'admin' }).closest('tr') as HTMLElement;
    expect(nameless).not.toHaveTextContent('null');
    const solo = screen.getByRole('link', { name: 'solo' }).closest('tr') as HTMLElement;
    expect(solo).toHaveTextContent('First');
    expect(solo).not.toHaveTextContent('null');
    expect(listRequests()[0]?.url).toContain('include=servers');
    expect(document.title).toBe('Users | Aerie Test');
  });

  it('searches by username, or by email, once typing stops', async () => {
    panel.on('GET /api/application/users', (request) =>
      request.url.includes('filter')
        ? userList(userItem(2, 'robin'))
        : userList(userItem(1, 'casey'), userItem(2, 'robin')),
    );
    const { user } = renderApp('/admin/users', { user: admin });
    await screen.findByRole('link', { name: 'casey' });
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'rob');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'casey' })).not.toBeInTheDocument());
    const searched = listRequests().slice(1);
    expect(searched.map((request) => decodeURIComponent(request.url))).toEqual([
      '/api/application/users?page=1&filter[username]=rob&include=servers',
    ]);

    await user.selectOptions(screen.getByLabelText('Search by'), 'email');
    await waitFor(() =>
      expect(decodeURIComponent(listRequests().at(-1)?.url ?? '')).toBe(
        '/api/application/users?page=1&filter[email]=rob&include=servers',
      ),
    );
  });

  describe('creating a user', () => {
    async function openForm() {
      panel.on('GET /api/application/users', () => userList());
      const view = renderApp('/admin/users', { user: admin });
      await view.user.click(await screen.findByRole('button', { name: 'Create User' }));
      const dialog = await screen.findByRole('dialog', { name: 'Create User' });
      return { ...view, dialog };
    }

    it('checks the fields before sending anything', async () => {
      const { dialog, user } = await openForm();
      expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
        'Optional. Without one the user is emailed a link to set their own password.',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
      expect(await within(dialog).findByText('The email field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The username field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The first name field is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('The last name field is required.')).toBeInTheDocument();

      await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
      await user.type(within(dialog).getByLabelText('Username'), '-bad-');
      expect(await within(dialog).findByText('The email must be a valid email address.')).toBeInTheDocument();
      expect(within(dialog).getByText(userMessages.username('username'))).toBeInTheDocument();
      expect(panel.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    });

    async function fillAndSubmit(password = '') {
      const view = await openForm();
      const { dialog, user } = view;
      await user.type(within(dialog).getByLabelText('Email'), 'new@example.com');
      await user.type(within(dialog).getByLabelText('Username'), 'newbie');
      await user.type(within(dialog).getByLabelText('First Name'), 'New');
      await user.type(within(dialog).getByLabelText('Last Name'), 'Bie');
      if (password) await user.type(within(dialog).getByLabelText('Password'), password);
      await user.click(within(dialog).getByRole('switch', { name: 'Root Administrator' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
      return view;
    }

    it('shows a 422 of the panel under its field', async () => {
      panel.on('POST /api/application/users', () =>
        validation([{ field: 'email', detail: 'The email has already been taken.' }]),
      );
      const { dialog } = await fillAndSubmit();
      expect(await within(dialog).findByText('The email has already been taken.')).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    });

    it('shows any other refusal as a flash in the form', async () => {
      panel.on('POST /api/application/users', () => errorEnvelope(500, 'HttpException', 'Mail server down.'));
      const { dialog } = await fillAndSubmit();
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('ErrorMail server down.');
    });

    it('sends no password when none was typed, then opens the new user', async () => {
      panel.on('POST /api/application/users', () => ({
        status: 201,
        body: userItem(9, 'newbie', { email: 'new@example.com', root_admin: true }),
      }));
      await fillAndSubmit();
      expect(await screen.findByRole('heading', { name: 'newbie' })).toBeInTheDocument();
      expect(panel.requests.find((request) => request.method === 'POST')?.body).toEqual({
        email: 'new@example.com',
        username: 'newbie',
        first_name: 'New',
        last_name: 'Bie',
        root_admin: true,
        language: 'en',
      });
      expect(screen.getByRole('alert')).toHaveTextContent('The user was created.');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  describe('a user page', () => {
    function openUser(overrides: Record<string, unknown> = {}) {
      panel.on('GET /api/application/users/4', () => ({ body: userItem(4, 'casey', overrides) }));
      // The page's role picker lists the roles.
      panel.on('GET /api/application/roles', () => userList());
      return renderApp('/admin/users/view/4', { user: admin });
    }

    it('lists the servers the user owns, each linking to its admin page', async () => {
      openUser({
        relationships: {
          servers: { object: 'list', data: [serverItem(7, 'Survival'), serverItem(8, 'Creative')] },
        },
      });
      const servers = await screen.findByRole('list', { name: 'Owned servers' });
      expect(within(servers).getByRole('link', { name: 'Survival' })).toHaveAttribute(
        'href',
        '/admin/servers/view/7',
      );
      expect(within(servers).getByRole('link', { name: 'Creative' })).toHaveAttribute(
        'href',
        '/admin/servers/view/8',
      );
      expect(panel.requests[0]?.url).toBe('/api/application/users/4?include=servers');
    });

    it('saves every field again and keeps the password when it is left blank', async () => {
      panel.on('PATCH /api/application/users/4', (request) => ({
        body: userItem(4, 'casey', { first_name: (request.body as { first_name: string }).first_name }),
      }));
      const { user } = openUser();
      const firstName = await screen.findByLabelText('First Name');
      expect(firstName).toHaveValue('First');
      await user.clear(firstName);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('The first name field is required.')).toBeInTheDocument();
      await user.type(firstName, 'Casey');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('The user was updated.');
      expect(panel.requests.find((request) => request.method === 'PATCH')?.body).toEqual({
        email: 'casey@example.com',
        username: 'casey',
        first_name: 'Casey',
        last_name: 'Last',
        root_admin: false,
        language: 'en',
      });
    });

    it('sends a new password and shows a 422 under its field', async () => {
      panel.on('PATCH /api/application/users/4', () =>
        validation([{ field: 'username', detail: 'The username has already been taken.' }]),
      );
      const { user } = openUser();
      await user.type(await screen.findByLabelText('Password'), 'hunter22');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('The username has already been taken.')).toBeInTheDocument();
      expect(panel.requests.find((request) => request.method === 'PATCH')?.body).toMatchObject({
        password: 'hunter22',
      });
    });

    it('shows the panel refusing to delete a user who owns servers, and keeps them', async () => {
      panel.on('DELETE /api/application/users/4', () =>
        errorEnvelope(400, 'DisplayException', userMessages.hasServers),
      );
      const { user } = openUser();
      await user.click(await screen.findByRole('button', { name: 'Delete User' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
      expect(dialog).toHaveTextContent('Delete casey? This cannot be undone.');
      await user.click(within(dialog).getByRole('button', { name: 'Yes, delete user' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(userMessages.hasServers);
      expect(screen.getByRole('heading', { name: 'casey' })).toBeInTheDocument();
    });

    it('deletes a user once confirmed and goes back to the list', async () => {
      panel.on('DELETE /api/application/users/4', () => ({ status: 204 }));
      panel.on('GET /api/application/users', () => userList());
      const { user } = openUser();
      await user.click(await screen.findByRole('button', { name: 'Delete User' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
      await user.click(within(dialog).getByRole('button', { name: 'Yes, delete user' }));
      expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent('The user casey was deleted.');
    });
  });

  describe('the role of a user', () => {
    const roleItem = (id: number, name: string) => ({
      object: 'admin_role',
      attributes: {
        id,
        name,
        description: null,
        permissions: ['servers.read'],
        created_at: '2026-01-02T03:04:05+00:00',
        updated_at: '2026-01-02T03:04:05+00:00',
      },
    });

    function openUser(overrides: Record<string, unknown> = {}, viewer = admin) {
      panel.on('GET /api/application/users/4', () => ({ body: userItem(4, 'casey', overrides) }));
      panel.on('GET /api/application/roles', () => ({
        body: {
          object: 'list',
          data: [roleItem(1, 'Support'), roleItem(2, 'Auditor')],
          meta: {
            pagination: { total: 2, count: 2, per_page: 1000, current_page: 1, total_pages: 1 },
          },
        },
      }));
      return renderApp('/admin/users/view/4', { user: viewer });
    }

    const roleSelect = async () => {
      const select = await screen.findByRole('combobox', { name: 'Role' });
      await waitFor(() => expect(select).toBeEnabled());
      return select;
    };
    const puts = () => panel.requests.filter((request) => request.method === 'PUT');

    it('offers None and every role, starting from the role the user holds', async () => {
      openUser({ admin_role_id: 2 });
      const select = await roleSelect();
      expect(
        within(select)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['None', 'Support', 'Auditor']);
      expect(select).toHaveDisplayValue('Auditor');
    });

    it('gives the user a role, then takes it away', async () => {
      panel.on('PUT /api/application/users/4/role', () => ({ status: 204 }));
      const { user } = openUser();
      const select = await roleSelect();
      expect(select).toHaveDisplayValue('None');
      await user.selectOptions(select, 'Support');
      await user.click(screen.getByRole('button', { name: 'Save Role' }));
      expect(await screen.findByText('The role was saved.')).toBeInTheDocument();
      await user.selectOptions(select, 'None');
      await user.click(screen.getByRole('button', { name: 'Save Role' }));
      await waitFor(() => expect(puts()).toHaveLength(2));
      expect(puts().map((request) => [request.url, request.body])).toEqual([
        ['/api/application/users/4/role', { role_id: 1 }],
        ['/api/application/users/4/role', { role_id: null }],
      ]);
    });

    it("shows the panel refusing a role beyond the admin's own", async () => {
      panel.on('PUT /api/application/users/4/role', () =>
        errorEnvelope(403, 'AccessDeniedHttpException', adminRoleMessages.beyondOwn),
      );
      const { user } = openUser();
      await user.selectOptions(await roleSelect(), 'Auditor');
      await user.click(screen.getByRole('button', { name: 'Save Role' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'You cannot grant permissions you do not have.',
      );
    });

    it('is not offered for a root admin, who needs no role', async () => {
      openUser({ root_admin: true });
      expect(await screen.findByRole('heading', { name: 'casey' })).toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: 'Role' })).not.toBeInTheDocument();
    });

    it('is read-only for a viewer who may not change users', async () => {
      openUser({ admin_role_id: 1 }, pageUser({ admin_permissions: ['users.read', 'roles.read'] }));
      const select = await screen.findByRole('combobox', { name: 'Role' });
      await waitFor(() => expect(select).toHaveDisplayValue('Support'));
      expect(select).toBeDisabled();
      expect(select).toHaveAccessibleDescription("You may see this user's role but not change it.");
      expect(screen.queryByRole('button', { name: 'Save Role' })).not.toBeInTheDocument();
    });
  });
});
