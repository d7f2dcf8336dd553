import type { AllocationAttributes } from '@aerie/shared/servers/server-wire';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { serverCache } from '@/features/servers/api/server-cache';
import { getQueryClient } from '@/lib/query-client';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const allocation = (overrides: Partial<AllocationAttributes> & { id: number }): AllocationAttributes => ({
  ip: '10.1.1.1',
  ip_alias: null,
  port: 25564 + overrides.id,
  notes: null,
  is_default: false,
  ...overrides,
});

const primary = allocation({ id: 1, ip_alias: 'play.example.com', is_default: true, notes: 'Game' });
const second = allocation({ id: 2, notes: 'Voice chat' });
const listBody = (allocations: AllocationAttributes[]) => ({
  body: { object: 'list', data: allocations.map((attributes) => ({ object: 'allocation', attributes })) },
});
const serveAllocations = (allocations: AllocationAttributes[] = [primary, second]) =>
  panel.on(`GET ${serverApi}/network/allocations`, () => listBody(allocations));

const openNetwork = ({ limit = 3, permissions }: { limit?: number; permissions?: string[] } = {}) =>
  openServerPage(panel, 'network', {
    server: {
      feature_limits: { allocations: limit },
      allocations: [{ ip: '10.1.1.1', ip_alias: 'play.example.com', port: 25565, is_default: true }],
    },
    permissions,
  });

const row = (address: string) => screen.getByRole('listitem', { name: address });
const usage = (n: number, limit: number) =>
  `You are currently using ${n} of ${limit} allowed allocations for this server.`;
/** The open server's allocations as the rest of the area (the console's address) reads them. */
const serverAllocations = () => serverCache.get(getQueryClient(), 'abcd1234')?.allocations;

describe('network: list', () => {
  it('lists each allocation with its address, port and notes, and the primary one as Primary', async () => {
    serveAllocations();
    openNetwork();
    expect(await screen.findByRole('listitem', { name: 'play.example.com:25565' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Network' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Network');

    const first = row('play.example.com:25565');
    expect(within(first).getByText('play.example.com')).toBeInTheDocument();
    expect(within(first).getByText('Hostname')).toBeInTheDocument();
    expect(within(first).getByText('25565')).toBeInTheDocument();
    expect(within(first).getByRole('textbox')).toHaveValue('Game');
    expect(within(first).getByText('Primary')).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: 'Make Primary' })).not.toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();

    const other = row('10.1.1.1:25566');
    expect(within(other).getByText('10.1.1.1')).toBeInTheDocument();
    expect(within(other).getByText('IP Address')).toBeInTheDocument();
    expect(within(other).getByRole('textbox', { name: 'Notes for 10.1.1.1:25566' })).toHaveValue(
      'Voice chat',
    );
    expect(within(other).queryByText('Primary')).not.toBeInTheDocument();
    expect(within(other).getByRole('button', { name: 'Make Primary' })).toBeInTheDocument();
    expect(within(other).getByRole('button', { name: 'Delete 10.1.1.1:25566' })).toBeInTheDocument();

    expect(screen.getByText(usage(2, 3))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Allocation' })).toBeInTheDocument();
    // The list answers for the server too: the console's address reads the same allocations.
    await waitFor(() => expect(serverAllocations()).toHaveLength(2));
  });

  it('is not loaded again when the page opens again', async () => {
    serveAllocations();
    const { router } = openNetwork();
    await screen.findByRole('listitem', { name: 'play.example.com:25565' });
    await act(() => router.navigate('/server/abcd1234/settings'));
    await screen.findByRole('heading', { name: 'Settings' });
    await act(() => router.navigate('/server/abcd1234/network'));
    expect(await screen.findByRole('listitem', { name: 'play.example.com:25565' })).toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/network/allocations')).toHaveLength(1);
  });

  it('shows a failed load as an error flash', async () => {
    panel.on(`GET ${serverApi}/network/allocations`, () =>
      errorEnvelope(403, 'AuthorizationException', 'This action is unauthorized.'),
    );
    openNetwork();
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
  });
});

describe('network: create', () => {
  it('adds the new allocation, and hides Create Allocation once the limit is reached', async () => {
    serveAllocations();
    panel.on(`POST ${serverApi}/network/allocations`, () => ({
      body: { object: 'allocation', attributes: allocation({ id: 7, port: 25590 }) },
    }));
    const { user } = openNetwork();
    await user.click(await screen.findByRole('button', { name: 'Create Allocation' }));
    expect(await screen.findByRole('listitem', { name: '10.1.1.1:25590' })).toBeInTheDocument();
    expect(screen.getByText(usage(3, 3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).not.toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/network/allocations')).toHaveLength(1);
    expect(serverAllocations()?.map((a) => a.port)).toEqual([25565, 25566, 25590]);
  });

  it('shows a refused create as an error flash', async () => {
    serveAllocations();
    panel.on(`POST ${serverApi}/network/allocations`, () =>
      errorEnvelope(
        400,
        'AutoAllocationNotEnabledException',
        'Server auto-allocation is not enabled for this instance.',
      ),
    );
    const { user } = openNetwork();
    await user.click(await screen.findByRole('button', { name: 'Create Allocation' }));
    const flash = await screen.findByText('Server auto-allocation is not enabled for this instance.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows the count without Create Allocation at the limit', async () => {
    serveAllocations();
    openNetwork({ limit: 2 });
    expect(await screen.findByText(usage(2, 2))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).not.toBeInTheDocument();
  });

  it('shows neither the count nor Create Allocation without allocation.create', async () => {
    serveAllocations();
    openNetwork({ permissions: ['allocation.read', 'allocation.update', 'allocation.delete'] });
    await screen.findByRole('listitem', { name: 'play.example.com:25565' });
    expect(screen.queryByText(usage(2, 3))).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).not.toBeInTheDocument();
  });

  it('gives a subuser with allocation.read alone read-only notes and no controls', async () => {
    serveAllocations();
    openNetwork({ permissions: ['allocation.read'] });
    const other = await screen.findByRole('listitem', { name: '10.1.1.1:25566' });
    expect(within(other).getByRole('textbox')).toHaveAttribute('readonly');
    expect(within(other).queryByRole('button', { name: 'Make Primary' })).not.toBeInTheDocument();
    expect(within(other).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).not.toBeInTheDocument();

    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(within(other).getByRole('textbox'), { target: { value: 'Mine now' } });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(fetchSpy.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });
});

describe('network: notes', () => {
  it('saves the notes once, 750 ms after typing stops', async () => {
    serveAllocations();
    panel.on(`POST ${serverApi}/network/allocations/2`, (request) => ({
      body: {
        object: 'allocation',
        attributes: { ...second, notes: (request.body as { notes: string }).notes },
      },
    }));
    openNetwork();
    const notes = await screen.findByRole('textbox', { name: 'Notes for 10.1.1.1:25566' });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const posts = () => fetchSpy.mock.calls.filter(([, init]) => init?.method === 'POST');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    fireEvent.change(notes, { target: { value: 'Voice' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    fireEvent.change(notes, { target: { value: 'Voice server' } });
    await act(() => vi.advanceTimersByTimeAsync(749));
    expect(posts()).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    // Only promises run from here on; the fake clock stays at 750 ms.
    await vi.waitFor(() => expect(posts()).toHaveLength(1), { interval: 0 });
    vi.useRealTimers();

    await waitFor(() =>
      expect(requestsTo(panel, 'POST', '/network/allocations/2').map((request) => request.body)).toEqual([
        { notes: 'Voice server' },
      ]),
    );
    await waitFor(() => expect(serverAllocations()?.find((a) => a.id === 2)?.notes).toBe('Voice server'));
  });
});

describe('network: make primary', () => {
  it('moves the Primary badge at once', async () => {
    serveAllocations();
    panel.on(`POST ${serverApi}/network/allocations/2/primary`, () => ({
      delayMs: 300,
      body: { object: 'allocation', attributes: { ...second, is_default: true } },
    }));
    const { user } = openNetwork();
    await screen.findByRole('listitem', { name: '10.1.1.1:25566' });
    await user.click(within(row('10.1.1.1:25566')).getByRole('button', { name: 'Make Primary' }));

    expect(within(row('10.1.1.1:25566')).getByText('Primary')).toBeInTheDocument();
    expect(within(row('play.example.com:25565')).queryByText('Primary')).not.toBeInTheDocument();
    expect(
      within(row('play.example.com:25565')).getByRole('button', { name: 'Make Primary' }),
    ).toBeInTheDocument();
    expect(serverAllocations()?.find((a) => a.isDefault)?.port).toBe(25566);
    await waitFor(() => expect(requestsTo(panel, 'POST', '/network/allocations/2/primary')).toHaveLength(1));
  });

  it('reloads the list and flashes the error when the change is refused', async () => {
    serveAllocations();
    panel.on(`POST ${serverApi}/network/allocations/2/primary`, () => ({
      ...errorEnvelope(500, 'HttpException', 'Could not switch the primary allocation.'),
      delayMs: 300,
    }));
    const { user } = openNetwork();
    await screen.findByRole('listitem', { name: '10.1.1.1:25566' });
    await user.click(within(row('10.1.1.1:25566')).getByRole('button', { name: 'Make Primary' }));
    expect(within(row('10.1.1.1:25566')).getByText('Primary')).toBeInTheDocument();

    expect(await screen.findByText('Could not switch the primary allocation.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(row('play.example.com:25565')).getByText('Primary')).toBeInTheDocument(),
    );
    expect(within(row('10.1.1.1:25566')).queryByText('Primary')).not.toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/network/allocations')).toHaveLength(2);
    expect(serverAllocations()?.find((a) => a.isDefault)?.port).toBe(25565);
  });
});

describe('network: delete', () => {
  it('asks, then removes the allocation from the list at once', async () => {
    serveAllocations();
    panel.on(`DELETE ${serverApi}/network/allocations/2`, () => ({ status: 204, delayMs: 300 }));
    const { user } = openNetwork();
    await screen.findByRole('listitem', { name: '10.1.1.1:25566' });
    await user.click(within(row('10.1.1.1:25566')).getByRole('button', { name: 'Delete 10.1.1.1:25566' }));

    const dialog = await screen.findByRole('dialog', { name: 'Remove this allocation?' });
    expect(dialog).toHaveTextContent(
      'This allocation will be immediately removed from your server. Are you sure you want to continue?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(screen.queryByRole('listitem', { name: '10.1.1.1:25566' })).not.toBeInTheDocument();
    expect(serverAllocations()?.map((a) => a.port)).toEqual([25565]);
    await waitFor(() => expect(requestsTo(panel, 'DELETE', '/network/allocations/2')).toHaveLength(1));
    expect(screen.getByText(usage(1, 3))).toBeInTheDocument();
  });

  it('brings the allocation back by reloading when the delete is refused', async () => {
    serveAllocations();
    panel.on(`DELETE ${serverApi}/network/allocations/2`, () => ({
      ...errorEnvelope(
        400,
        'DisplayException',
        'You cannot delete allocations for this server: no allocation limit is set.',
      ),
      delayMs: 300,
    }));
    const { user } = openNetwork();
    await screen.findByRole('listitem', { name: '10.1.1.1:25566' });
    await user.click(within(row('10.1.1.1:25566')).getByRole('button', { name: 'Delete 10.1.1.1:25566' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this allocation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('listitem', { name: '10.1.1.1:25566' })).not.toBeInTheDocument();

    expect(
      await screen.findByText('You cannot delete allocations for this server: no allocation limit is set.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: '10.1.1.1:25566' })).toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/network/allocations')).toHaveLength(2);
  });
});
