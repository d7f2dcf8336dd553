import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';

const panel = setUpPanelTestServer();
const admin = () => pageUser({ root_admin: true });

const eggAttributes = {
  id: 7,
  uuid: 'b2c0b0e2-0000-4000-8000-000000000007',
  name: 'Paper',
  nest: 1,
  author: 'parker@pterodactyl.io',
  description: 'High performance Minecraft',
  docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
  docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'ghcr.io/x/y:1': 'ghcr.io/x/y:1' },
  config: {
    files: {},
    startup: { done: ')! For help, type ' },
    stop: 'stop',
    logs: {},
    file_denylist: [],
    extends: null,
  },
  startup: 'java -jar {{SERVER_JARFILE}}',
  script: {
    privileged: true,
    install: '#!/bin/ash\necho hi',
    entry: 'ash',
    container: 'alpine:3.4',
    extends: null,
  },
  created_at: '2024-01-01T00:00:00+00:00',
  updated_at: '2024-01-01T00:00:00+00:00',
};

const variable = {
  id: 30,
  egg_id: 7,
  name: 'Server Jar File',
  description: 'The jar to run',
  env_variable: 'SERVER_JARFILE',
  default_value: 'server.jar',
  user_viewable: true,
  user_editable: true,
  rules: 'required|string|max:20',
  created_at: '2024-01-01T00:00:00.000000Z',
  updated_at: '2024-01-01T00:00:00.000000Z',
};

const nestsBody = {
  object: 'list',
  data: [
    {
      object: 'nest',
      attributes: {
        id: 1,
        uuid: 'a1',
        author: 'admin@example.com',
        name: 'Minecraft',
        description: 'Block games',
        relationships: { eggs: { object: 'list', data: [{ object: 'egg', attributes: eggAttributes }] } },
      },
    },
    {
      object: 'nest',
      attributes: {
        id: 2,
        uuid: 'a2',
        author: 'admin@example.com',
        name: 'Empty',
        description: null,
        relationships: { eggs: { object: 'list', data: [] } },
      },
    },
  ],
  meta: { pagination: { total: 2, count: 2, per_page: 1000, current_page: 1, total_pages: 1, links: [] } },
};

const eggBody = {
  object: 'egg',
  attributes: {
    ...eggAttributes,
    relationships: {
      variables: { object: 'list', data: [{ object: 'egg_variable', attributes: variable }] },
    },
  },
};

const validation = (field: string, detail: string) => ({
  status: 422,
  body: {
    errors: [{ code: 'ValidationException', status: '422', detail, meta: { source_field: field, rule: '' } }],
  },
});

describe('/admin/nests', () => {
  it('lists the nests with their egg counts and creates one; the rules and the server 422 show on the field', async () => {
    panel.on('GET /api/application/nests', () => ({ body: nestsBody }));
    const posted: unknown[] = [];
    panel.on('POST /api/application/nests', (request) => {
      posted.push(request.body);
      return validation('name', 'The name has already been taken.');
    });
    const user = userEvent.setup();
    renderApp('/admin/nests', { user: admin() });
    const table = await screen.findByRole('table', { name: 'Nests' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Minecraft', 'Block games', '1'],
      ['Empty', '', '0'],
    ]);

    await user.click(screen.getByRole('button', { name: 'Create Nest' }));
    const dialog = await screen.findByRole('dialog', { name: 'New nest' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Nest' }));
    expect(await within(dialog).findByText('The name field is required.')).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), 'Minecraft');
    await user.click(within(dialog).getByRole('button', { name: 'Create Nest' }));
    expect(await within(dialog).findByText('The name has already been taken.')).toBeInTheDocument();
    expect(posted).toEqual([{ name: 'Minecraft', description: '' }]);
  });

  it('shows the panel refusal when deleting a nest with servers', async () => {
    panel.on('GET /api/application/nests', () => ({ body: nestsBody }));
    panel.on('DELETE /api/application/nests/1', () => ({
      status: 400,
      body: {
        errors: [
          {
            code: 'DisplayException',
            status: '400',
            detail: 'Cannot delete a nest that contains active servers.',
          },
        ],
      },
    }));
    const user = userEvent.setup();
    renderApp('/admin/nests', { user: admin() });
    const table = await screen.findByRole('table', { name: 'Nests' });
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    await user.click(within(first).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Minecraft?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('Cannot delete a nest that contains active servers.'),
    ).toBeInTheDocument();
  });
});

describe('/admin/nests/view/:id', () => {
  it('imports a pasted JSON export as JSON and pasted YAML as {file}; the API error shows', async () => {
    panel.on('GET /api/application/nests', () => ({ body: nestsBody }));
    const bodies: unknown[] = [];
    panel.on('POST /api/application/nests/2/eggs/import', (request) => {
      bodies.push(request.body);
      return bodies.length === 1
        ? { status: 201, body: { object: 'egg', attributes: { ...eggAttributes, nest: 2 } } }
        : {
            status: 400,
            body: {
              errors: [
                { code: 'DisplayException', status: '400', detail: 'The file is not a valid egg export.' },
              ],
            },
          };
    });
    const user = userEvent.setup();
    renderApp('/admin/nests/view/2', { user: admin() });
    expect(await screen.findByRole('heading', { name: 'Empty' })).toBeInTheDocument();
    expect(screen.getByText('This nest has no eggs yet. Import one.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Import egg' }));
    let dialog = await screen.findByRole('dialog', { name: 'Import egg' });
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(within(dialog).getByText('Choose a file or paste its text.')).toBeInTheDocument();
    const exportText = JSON.stringify({ meta: { version: 'PTDL_v2' }, name: 'Paper' });
    await user.click(within(dialog).getByLabelText('Or paste the file'));
    await user.paste(exportText);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies[0]).toEqual({ meta: { version: 'PTDL_v2' }, name: 'Paper' });
    // Said on the page, not only by the dialog closing.
    expect(await screen.findByText('Imported the Paper egg into Empty.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Import egg' }));
    dialog = await screen.findByRole('dialog', { name: 'Import egg' });
    const yaml = 'meta:\n  version: PLCN_v3\nname: Paper\n';
    await user.click(within(dialog).getByLabelText('Or paste the file'));
    await user.paste(yaml);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('The file is not a valid egg export.')).toBeInTheDocument();
    expect(bodies[1]).toEqual({ file: yaml });
  });
});

describe('/admin/nests: egg import', () => {
  it('imports from the list page into the nest the admin picks, and says where it went', async () => {
    panel.on('GET /api/application/nests', () => ({ body: nestsBody }));
    const imported: string[] = [];
    panel.on('POST /api/application/nests/2/eggs/import', (request) => {
      imported.push(request.url);
      return { status: 201, body: { object: 'egg', attributes: { ...eggAttributes, nest: 2 } } };
    });
    const user = userEvent.setup();
    renderApp('/admin/nests', { user: admin() });
    const open = await screen.findByRole('button', { name: 'Import egg' });
    // Enabled once the nests it imports into are loaded.
    await waitFor(() => expect(open).toBeEnabled());
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Import egg' });
    await user.selectOptions(within(dialog).getByLabelText('Into nest'), 'Empty');
    await user.click(within(dialog).getByLabelText('Or paste the file'));
    await user.paste(JSON.stringify({ meta: { version: 'PTDL_v2' }, name: 'Paper' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported the Paper egg into Empty.')).toBeInTheDocument();
    expect(imported).toEqual(['/api/application/nests/2/eggs/import']);
  });
});

describe('/admin/nests/egg/:id', () => {
  const openEgg = async () => {
    panel.on('GET /api/application/nests', () => ({ body: nestsBody }));
    panel.on('GET /api/application/nests/1/eggs/7', () => ({ body: eggBody }));
    const user = userEvent.setup();
    renderApp('/admin/nests/egg/7', { user: admin() });
    expect(await screen.findByRole('heading', { name: 'Paper' })).toBeInTheDocument();
    return user;
  };

  it('shows the configuration and checks it by the API rules before sending; saves the changed egg', async () => {
    const patches: unknown[] = [];
    panel.on('PATCH /api/application/nests/1/eggs/7', (request) => {
      patches.push(request.body);
      return { body: eggBody };
    });
    const user = await openEgg();
    const form = screen.getByRole('form', { name: 'Configuration' });
    const images = within(form).getByLabelText('Docker images');
    expect(images).toHaveValue('Java 21|ghcr.io/pterodactyl/yolks:java_21\nghcr.io/x/y:1');
    expect(within(form).getByLabelText('Started when the console prints')).toHaveValue(')! For help, type ');

    await user.clear(images);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The docker images field is required.')).toBeInTheDocument();
    await user.type(images, 'Java|bad image!');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The docker_images.Java format is invalid.')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user.clear(images);
    await user.type(images, 'Java 17|ghcr.io/pterodactyl/yolks:java_17');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The egg was saved.')).toBeInTheDocument();
    expect(patches).toEqual([
      {
        name: 'Paper',
        description: 'High performance Minecraft',
        docker_images: { 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
        startup: 'java -jar {{SERVER_JARFILE}}',
        config_stop: 'stop',
        config_startup: ')! For help, type ',
      },
    ]);
  });

  it('refuses an unknown variable rule before sending, and shows the server 422 of a new variable', async () => {
    const posted: unknown[] = [];
    panel.on('POST /api/application/nests/1/eggs/7/variables', (request) => {
      posted.push(request.body);
      return validation('env_variable', 'The env variable has already been taken.');
    });
    const user = await openEgg();
    expect(screen.getByText('SERVER_JARFILE = server.jar')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New Variable' }));
    const dialog = await screen.findByRole('dialog', { name: 'New variable' });
    await user.type(within(dialog).getByLabelText('Name'), 'Jar');
    await user.type(within(dialog).getByLabelText('Environment variable'), 'SERVER_JARFILE');
    const rules = within(dialog).getByLabelText('Input rules');
    await user.clear(rules);
    await user.type(rules, 'required|distinct');
    await user.click(within(dialog).getByRole('button', { name: 'New Variable' }));
    expect(
      await within(dialog).findByText(
        'The validation rule "distinct" is not a valid rule for this application.',
      ),
    ).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.clear(rules);
    await user.type(rules, 'required|string');
    await user.click(within(dialog).getByRole('switch', { name: 'Users can edit' }));
    await user.click(within(dialog).getByRole('button', { name: 'New Variable' }));
    expect(await within(dialog).findByText('The env variable has already been taken.')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        name: 'Jar',
        description: '',
        env_variable: 'SERVER_JARFILE',
        default_value: '',
        user_viewable: true,
        user_editable: false,
        rules: 'required|string',
      },
    ]);
  });

  it('exports through the API with the session and downloads the text', async () => {
    const exported = '{\n    "meta": {"version": "PTDL_v2"}\n}';
    panel.on('GET /api/application/nests/1/eggs/7/export', () => ({
      raw: exported,
      contentType: 'application/json',
    }));
    const created: Blob[] = [];
    const original = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:egg';
    };
    URL.revokeObjectURL = () => undefined;
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    try {
      const user = await openEgg();
      await user.click(screen.getByRole('button', { name: 'Export' }));
      await waitFor(() => expect(created).toHaveLength(1));
      expect(await created[0]?.text()).toBe(exported);
      expect(names).toEqual(['egg-paper.json']);
    } finally {
      click.mockRestore();
      URL.createObjectURL = original;
    }
  });
});
