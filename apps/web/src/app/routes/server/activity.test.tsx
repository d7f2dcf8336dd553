import { screen, waitFor, within } from '@testing-library/react';
import { format } from 'date-fns';
import { describe, expect, it, vi } from 'vitest';
import { activityItem, activityPage, actorItem } from '@/testing/activity-fixtures';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const at = new Date(Date.now() - 5 * 60_000);

const rename = activityItem('server:file.rename', {
  actor: actorItem('casey'),
  ip: '203.0.113.9',
  is_api: true,
  timestamp: at.toISOString(),
  properties: { directory: '/plugins/', files: [{ from: 'old.jar', to: 'new.jar' }], count: 1 },
});
const deleted = activityItem('server:file.delete', {
  actor: actorItem('sam'),
  properties: { directory: '/logs/', files: ['a.log', 'b.log', 'c.log'], count: 3 },
  has_additional_metadata: true,
});
const command = activityItem('server:console.command', { properties: { command: 'say hello' } });

const query = (url: string) => new URL(url, 'http://panel').searchParams;

const openActivity = (permissions?: string[], path = 'activity') =>
  openServerPage(panel, path, { permissions });

describe('server activity', () => {
  it('lists each entry with its description, actor, relative time, and the IP and API badge when given', async () => {
    panel.on(`GET ${serverApi}/activity`, () => ({ body: activityPage([rename, deleted, command]) }));
    openActivity();
    const list = await screen.findByRole('list', { name: 'Activity log' });
    expect(screen.getByRole('heading', { name: 'Activity Log' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Activity Log');
    const [first, second, third] = within(list).getAllByRole('listitem') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];

    expect(first).toHaveTextContent('Renamed /plugins/old.jar to /plugins/new.jar');
    expect(first).toHaveTextContent('casey');
    expect(
      within(first).getByRole('button', { name: 'Show only server:file.rename events' }),
    ).toHaveTextContent('server:file.rename');
    expect(within(first).getByTestId('activity-ip')).toHaveTextContent('203.0.113.9');
    expect(within(first).getByText('API')).toHaveAttribute('title', 'Performed using an API key');
    const time = within(first).getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('title', format(at, 'MMM do, yyyy H:mm:ss'));

    expect(second).toHaveTextContent('Deleted 3 files in /logs/');
    expect(second).toHaveTextContent('sam');
    expect(within(second).queryByTestId('activity-ip')).not.toBeInTheDocument();
    expect(within(second).queryByText('API')).not.toBeInTheDocument();
    expect(within(second).getByText('Details')).toBeInTheDocument();
    expect(within(first).queryByText('Details')).not.toBeInTheDocument();

    expect(third).toHaveTextContent('Executed "say hello" on the server');

    const [request] = requestsTo(panel, 'GET', '/activity');
    expect(Object.fromEntries(query(request?.url ?? ''))).toEqual({
      page: '1',
      per_page: '25',
      include: 'actor',
    });
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('reads an entry without an actor as System, and an unknown event by its description', async () => {
    panel.on(`GET ${serverApi}/activity`, () => ({
      body: activityPage([
        activityItem('server:power.start', { actor: null }),
        activityItem('server:future.thing', { description: 'Did a future thing' }),
        activityItem('server:other.thing'),
      ]),
    }));
    openActivity();
    const rows = await within(await screen.findByRole('list', { name: 'Activity log' })).findAllByRole(
      'listitem',
    );
    expect(rows[0]).toHaveTextContent('System');
    expect(rows[0]).toHaveTextContent('Started the server');
    expect(rows[1]).toHaveTextContent('Did a future thing');
    expect(rows[2]).toHaveTextContent('server:other.thing');
  });

  it('pages through the log 25 entries at a time', async () => {
    panel.on(`GET ${serverApi}/activity`, (request) => {
      const page = Number(query(request.url).get('page'));
      return {
        body: activityPage([activityItem('server:power.start', { actor: actorItem(`user${page}`) })], {
          currentPage: page,
          totalPages: 3,
          total: 51,
        }),
      };
    });
    const { user, router } = openActivity();
    const pagination = await screen.findByRole('navigation', { name: 'Pagination' });
    expect(within(pagination).getByRole('button', { name: 'Page 1' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(within(pagination).getByRole('button', { name: 'Page 2' }));

    expect(await screen.findByText('user2')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    expect(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: 'Page 2' }),
    ).toHaveAttribute('aria-current', 'page');
    expect(requestsTo(panel, 'GET', '/activity').map((request) => query(request.url).get('page'))).toEqual([
      '1',
      '2',
    ]);
  });

  it('filters by an entry’s event, and clears the filter', async () => {
    panel.on(`GET ${serverApi}/activity`, (request) => {
      const filter = query(request.url).get('filter[event]');
      return { body: activityPage(filter ? [rename] : [rename, command]) };
    });
    const { user, router } = openActivity();
    const list = await screen.findByRole('list', { name: 'Activity log' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await user.click(within(list).getByRole('button', { name: 'Show only server:file.rename events' }));

    expect(await screen.findByText('Showing only events matching server:file.rename')).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(router.state.location.search).toBe('?event=server%3Afile.rename');
    expect(query(requestsTo(panel, 'GET', '/activity').at(-1)?.url ?? '').get('filter[event]')).toBe(
      'server:file.rename',
    );

    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.queryByText(/Showing only events/)).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('says so when the log is empty', async () => {
    panel.on(`GET ${serverApi}/activity`, () => ({ body: activityPage([]) }));
    openActivity();
    expect(await screen.findByText('No activity logs available for this server.')).toBeInTheDocument();
  });

  it('flashes a failed load', async () => {
    panel.on(`GET ${serverApi}/activity`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    openActivity(['activity.read']);
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
  });

  it('denies the page, and hides its tab, without activity.read', async () => {
    openActivity(['control.console', 'file.read']);
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Server' });
    expect(within(tabs).queryByRole('link', { name: 'Activity' })).not.toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/activity')).toHaveLength(0);
  });

  it('offers the Activity tab to a subuser with activity.read', async () => {
    panel.on(`GET ${serverApi}/activity`, () => ({ body: activityPage([]) }));
    const { user, router } = openActivity(['activity.read'], '');
    const tabs = await screen.findByRole('navigation', { name: 'Server' });
    await user.click(within(tabs).getByRole('link', { name: 'Activity' }));
    expect(await screen.findByText('No activity logs available for this server.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234/activity');
  });
});
