import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const entry = (id: number, overrides: Record<string, unknown> = {}) => ({
  object: 'audit_entry',
  attributes: {
    id,
    action: 'server.build',
    actor_id: 1,
    actor_name: 'casey',
    api_key: null,
    ip: '203.0.113.7',
    subject_type: 'server',
    subject_id: '12',
    before: null,
    after: null,
    created_at: new Date(2026, 2, 5, 14, 7, 9).toISOString(),
    ...overrides,
  },
});

const listOf = (...items: ReturnType<typeof entry>[]) => ({
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

const build = entry(3, {
  before: { name: 'Survival', limits: { memory: 1024, disk: 5120 }, oom_disabled: false },
  after: { name: 'Survival', limits: { memory: 2048, disk: 5120 }, oom_disabled: false },
});
const keyCreated = entry(2, {
  action: 'user.update',
  actor_name: 'billing-bot',
  api_key: 'ptla_abcdef12345',
  ip: '198.51.100.4',
  subject_type: 'user',
  subject_id: '4',
  before: { username: 'robin', email: 'robin@example.com', password: '[redacted]' },
  after: { username: 'robin', email: 'robin@example.net', password: '[redacted]' },
});
const settings = entry(1, {
  action: 'settings.update',
  subject_type: 'settings',
  subject_id: null,
  before: { app_name: 'Aerie', mail_url: null },
  after: { app_name: 'Acme Panel', mail_url: '[redacted]' },
});

const listUrls = () =>
  panel.requests
    .filter((request) => request.url.startsWith('/api/application/audit-log'))
    .map((request) => decodeURIComponent(request.url));

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('/admin/audit', () => {
  it('lists each change with its time, actor, action, subject and address', async () => {
    panel.on('GET /api/application/audit-log', () => listOf(build, keyCreated, settings));
    renderApp('/admin/audit', { user: admin });
    const table = await screen.findByRole('table', { name: 'Audit Log' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Time', 'Actor', 'Action', 'Subject', 'IP', 'Details']);
    const first = rowOf('Server build changed');
    expect(first).toHaveTextContent('Mar 5th, 2026 14:07:09');
    expect(first).toHaveTextContent('casey');
    expect(first).toHaveTextContent('203.0.113.7');
    expect(within(first).getByRole('link', { name: 'Server #12' })).toHaveAttribute(
      'href',
      '/admin/servers/view/12',
    );
    const byKey = rowOf('User updated');
    expect(byKey).toHaveTextContent('billing-bot');
    expect(byKey).toHaveTextContent('API key ptla_abcdef12345');
    expect(within(byKey).getByRole('link', { name: 'User #4' })).toHaveAttribute(
      'href',
      '/admin/users/view/4',
    );
    expect(rowOf('Settings updated')).not.toHaveTextContent('API key');
    expect(listUrls()).toEqual(['/api/application/audit-log?page=1']);
    expect(document.title).toBe('Audit Log | Aerie Test');
  });

  it('asks the panel again when a filter changes, and says when nothing matches', async () => {
    panel.on('GET /api/application/audit-log', (request) =>
      request.url.includes('filter') ? listOf() : listOf(build, keyCreated),
    );
    const { user } = renderApp('/admin/audit', { user: admin });
    await screen.findByText('Server build changed');

    await user.selectOptions(screen.getByLabelText('Subject type'), 'user');
    expect(await screen.findByText('No entry matches these filters.')).toHaveAttribute('role', 'status');
    expect(listUrls().at(-1)).toBe('/api/application/audit-log?page=1&filter[subject_type]=user');

    await user.type(screen.getByRole('searchbox', { name: 'Action' }), 'user.');
    await user.type(screen.getByRole('searchbox', { name: 'Actor' }), 'bot');
    await waitFor(() =>
      expect(listUrls().at(-1)).toBe(
        '/api/application/audit-log?page=1&filter[action]=user.&filter[actor_name]=bot&filter[subject_type]=user',
      ),
    );
  });

  it('says so when nothing has been recorded yet', async () => {
    panel.on('GET /api/application/audit-log', () => listOf());
    renderApp('/admin/audit', { user: admin });
    expect(await screen.findByText('No change has been recorded yet.')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('unfolds an entry into the fields it changed, before and after', async () => {
    panel.on('GET /api/application/audit-log', () => listOf(build, keyCreated, settings));
    const { user } = renderApp('/admin/audit', { user: admin });
    await screen.findByText('Server build changed');
    const toggle = within(rowOf('Server build changed')).getByRole('button', { name: 'Show changes' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Hide changes');

    const changes = screen.getByRole('table', { name: 'Changes of entry 3' });
    const rows = within(changes).getAllByRole('row').slice(1);
    // Only what changed: the name and oom_disabled stayed as they were.
    expect(rows).toHaveLength(1);
    expect(within(rows[0] as HTMLElement).getByRole('rowheader')).toHaveTextContent('limits');
    const [before, after] = within(rows[0] as HTMLElement).getAllByRole('cell');
    expect(before?.textContent).toBe(JSON.stringify({ memory: 1024, disk: 5120 }, null, 2));
    expect(after?.textContent).toBe(JSON.stringify({ memory: 2048, disk: 5120 }, null, 2));

    await user.click(within(rowOf('Settings updated')).getByRole('button', { name: 'Show changes' }));
    const settingsRows = within(screen.getByRole('table', { name: 'Changes of entry 1' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(settingsRows).toEqual([
      ['app_name', '"Aerie"', '"Acme Panel"'],
      ['mail_url', 'null', '[redacted]'],
    ]);

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('table', { name: 'Changes of entry 3' })).not.toBeInTheDocument();
  });

  it('shows every field of a creation, with nothing before', async () => {
    panel.on('GET /api/application/audit-log', () =>
      listOf(
        entry(9, {
          action: 'admin_role.create',
          subject_type: 'admin_role',
          subject_id: '5',
          after: { id: 5, name: 'Support' },
        }),
      ),
    );
    const { user } = renderApp('/admin/audit', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Show changes' }));
    const rows = within(screen.getByRole('table', { name: 'Changes of entry 9' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['id', '—', '5'],
      ['name', '—', '"Support"'],
    ]);
    expect(screen.getByRole('link', { name: 'Role #5' })).toHaveAttribute('href', '/admin/roles/5');
  });
});
