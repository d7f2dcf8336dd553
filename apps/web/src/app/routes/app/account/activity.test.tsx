import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { activityItem, activityPage, actorItem } from '@/testing/activity-fixtures';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());

const requests = () =>
  server.requests
    .filter((request) => request.url.startsWith('/api/client/account/activity'))
    .map((request) => new URL(request.url, 'http://panel').searchParams);

describe('account activity', () => {
  it('is the Activity tab beside SSH Keys, titled Account Activity Log', async () => {
    server.on('GET /api/client/account/activity', () => ({ body: activityPage([]) }));
    renderApp('/account/activity', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Account Activity Log' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Account Activity Log | Aerie Test'));
    const sub = screen.getByRole('navigation', { name: 'Account Overview' });
    expect(within(sub).getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('No activity logs available for this account.')).toBeInTheDocument();
  });

  it('describes each entry with its properties, the IP only when given, and the API badge', async () => {
    server.on('GET /api/client/account/activity', () => ({
      body: activityPage([
        activityItem('user:account.email-changed', {
          ip: '198.51.100.7',
          properties: { old: 'old@example.com', new: 'casey@example.com' },
        }),
        activityItem('auth:fail', { actor: null, properties: { ip: '192.0.2.1', useragent: 'curl' } }),
        activityItem('user:api-key.create', { is_api: true, properties: { identifier: 'ptlc_abc123' } }),
        activityItem('server:subuser.create', {
          actor: actorItem('owner'),
          properties: { email: 'casey@example.com', permissions: ['file.read'], count: 1 },
        }),
      ]),
    }));
    renderApp('/account/activity', { user: pageUser() });
    const list = await screen.findByRole('list', { name: 'Activity log' });
    const [changed, failed, key, invited] = within(list).getAllByRole('listitem') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];

    expect(changed).toHaveTextContent('Changed email from old@example.com to casey@example.com');
    expect(within(changed).getByTestId('activity-ip')).toHaveTextContent('198.51.100.7');
    expect(within(changed).queryByText('API')).not.toBeInTheDocument();

    expect(failed).toHaveTextContent('Failed log in');
    expect(failed).toHaveTextContent('System');
    expect(within(failed).queryByTestId('activity-ip')).not.toBeInTheDocument();

    expect(key).toHaveTextContent('Created new API key ptlc_abc123');
    expect(within(key).getByText('API')).toBeInTheDocument();

    expect(invited).toHaveTextContent('owner');
    expect(invited).toHaveTextContent('Added casey@example.com as a subuser');

    expect(Object.fromEntries(requests()[0] ?? [])).toEqual({ page: '1', per_page: '25', include: 'actor' });
  });

  it('opens the page and filter named in the address', async () => {
    server.on('GET /api/client/account/activity', () => ({
      body: activityPage([activityItem('auth:success')], { currentPage: 2, totalPages: 2, total: 26 }),
    }));
    renderApp('/account/activity?page=2&event=auth', { user: pageUser() });
    expect(await screen.findByText('Logged in')).toBeInTheDocument();
    expect(screen.getByText('Showing only events matching auth')).toBeInTheDocument();
    expect(Object.fromEntries(requests()[0] ?? [])).toEqual({
      page: '2',
      per_page: '25',
      include: 'actor',
      'filter[event]': 'auth',
    });
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('flashes a failed load', async () => {
    server.on('GET /api/client/account/activity', () =>
      errorEnvelope(400, 'InvalidFilterQuery', 'Requested filter(s) `ip` are not allowed.'),
    );
    renderApp('/account/activity', { user: pageUser() });
    const flash = await screen.findByText('Requested filter(s) `ip` are not allowed.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
  });
});
