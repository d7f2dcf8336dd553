import { locationMessages } from '@aerie/shared/locations/locations-bodies';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true });

const locationItem = (id: number, short: string, long: string | null, nodes = 0) => ({
  object: 'location',
  attributes: {
    id,
    short,
    long,
    updated_at: '2026-01-02T03:04:05+00:00',
    created_at: '2026-01-02T03:04:05+00:00',
    relationships: { nodes: { object: 'list', data: Array.from({ length: nodes }, () => ({})) } },
  },
});

const listOf = (...items: ReturnType<typeof locationItem>[]) => ({
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

async function openList() {
  panel.on('GET /api/application/locations', () =>
    listOf(locationItem(1, 'us.nyc', 'New York', 2), locationItem(2, 'eu.fra', null)),
  );
  const view = renderApp('/admin/locations', { user: admin });
  await screen.findByText('us.nyc');
  return view;
}

const row = (short: string) => screen.getByText(short).closest('tr') as HTMLElement;

describe('/admin/locations', () => {
  it('lists each location with its description and node count', async () => {
    await openList();
    expect(row('us.nyc')).toHaveTextContent('New York');
    expect(row('us.nyc').children[3]).toHaveTextContent('2');
    expect(row('eu.fra').children[3]).toHaveTextContent('0');
    expect(panel.requests[0]?.url).toBe('/api/application/locations?page=1&include=nodes');
  });

  it('checks the short code before creating, and shows a 422 under its field', async () => {
    panel.on('POST /api/application/locations', () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The Location Identifier has already been taken.',
            meta: { source_field: 'short', rule: 'unique' },
          },
        ],
      },
    }));
    const { user } = await openList();
    await user.click(screen.getByRole('button', { name: 'Create Location' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Location' });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('The Location Identifier field is required.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Short Code'), 'x'.repeat(61));
    expect(
      await within(dialog).findByText('The Location Identifier must be between 1 and 60 characters.'),
    ).toBeInTheDocument();
    expect(panel.requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Short Code'));
    await user.type(within(dialog).getByLabelText('Short Code'), 'us.nyc');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText('The Location Identifier has already been taken.'),
    ).toBeInTheDocument();
    expect(panel.requests.find((request) => request.method === 'POST')?.body).toEqual({
      short: 'us.nyc',
      long: null,
    });
  });

  it('creates a location and lists it', async () => {
    panel.on('POST /api/application/locations', () => ({
      status: 201,
      body: locationItem(3, 'ap.syd', 'Sydney'),
    }));
    const { user } = await openList();
    await user.click(screen.getByRole('button', { name: 'Create Location' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Location' });
    await user.type(within(dialog).getByLabelText('Short Code'), 'ap.syd');
    await user.type(within(dialog).getByLabelText('Description'), 'Sydney');
    panel.on('GET /api/application/locations', () =>
      listOf(locationItem(1, 'us.nyc', 'New York', 2), locationItem(3, 'ap.syd', 'Sydney')),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The location ap.syd was created.')).toBeInTheDocument();
    expect(await screen.findByText('Sydney')).toBeInTheDocument();
    expect(panel.requests.find((request) => request.method === 'POST')?.body).toEqual({
      short: 'ap.syd',
      long: 'Sydney',
    });
  });

  it('edits a location with both fields sent again', async () => {
    panel.on('PATCH /api/application/locations/1', () => ({ body: locationItem(1, 'us.nyc', 'NYC') }));
    const { user } = await openList();
    await user.click(screen.getByRole('button', { name: 'Edit location us.nyc' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Location us.nyc' });
    expect(within(dialog).getByLabelText('Short Code')).toHaveValue('us.nyc');
    await user.clear(within(dialog).getByLabelText('Description'));
    await user.type(within(dialog).getByLabelText('Description'), 'NYC');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The location us.nyc was updated.')).toBeInTheDocument();
    expect(panel.requests.find((request) => request.method === 'PATCH')?.body).toEqual({
      short: 'us.nyc',
      long: 'NYC',
    });
  });

  it('shows the panel refusing to delete a location that has nodes', async () => {
    panel.on('DELETE /api/application/locations/1', () =>
      errorEnvelope(400, 'HasActiveNodesException', locationMessages.hasNodes),
    );
    const { user } = await openList();
    await user.click(screen.getByRole('button', { name: 'Delete location us.nyc' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Location' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete location' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(locationMessages.hasNodes);
  });

  it('deletes an empty location once confirmed', async () => {
    panel.on('DELETE /api/application/locations/2', () => ({ status: 204 }));
    const { user } = await openList();
    await user.click(screen.getByRole('button', { name: 'Delete location eu.fra' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Location' });
    panel.on('GET /api/application/locations', () => listOf(locationItem(1, 'us.nyc', 'New York', 2)));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete location' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent('The location eu.fra was deleted.');
    await waitFor(() => expect(screen.queryByText('eu.fra')).not.toBeInTheDocument());
  });
});
