import { scheduleFormDefaults, scheduleFormMessages } from '@aerie/shared/schedules/schedules-forms';
import { scheduleMessages } from '@aerie/shared/schedules/schedules-messages';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { schedulePolling } from '@/features/schedules/api/schedules';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { minutesFromNow, scheduleItem, scheduleList, taskItem } from '@/testing/schedule-fixtures';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const defaultPolling = schedulePolling.intervalMs;
afterEach(() => {
  schedulePolling.intervalMs = defaultPolling;
});

const restart = scheduleItem({
  id: 1,
  name: 'Nightly restart',
  cron: { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '1-5' },
  last_run_at: minutesFromNow(-5),
  next_run_at: minutesFromNow(120),
  tasks: [taskItem({ id: 1, sequence_id: 1 })],
});
const backup = scheduleItem({ id: 2, name: 'Backups', is_active: false });
const announce = scheduleItem({ id: 3, name: 'Announce', is_processing: true });

const serveSchedules = (schedules = [restart, backup, announce]) =>
  panel.on(`GET ${serverApi}/schedules`, () => ({ body: scheduleList(schedules) }));

const openSchedules = (permissions?: string[]) => openServerPage(panel, 'schedules', { permissions });

const row = (name: string) => screen.getByRole('listitem', { name });

describe('schedules: list', () => {
  it('shows each schedule with its name, runs, cron fields and state, linking to its page', async () => {
    serveSchedules();
    openSchedules();
    const first = await screen.findByRole('listitem', { name: 'Nightly restart' });
    expect(screen.getByRole('heading', { name: 'Schedules' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Schedules');

    expect(within(first).getByRole('link')).toHaveAttribute('href', '/server/abcd1234/schedules/1');
    expect(first).toHaveTextContent('Last run: 5 minutes ago');
    expect(first).toHaveTextContent('Next run: in 2 hours');
    expect(
      within(first)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['0', '4', '*', '*', '1-5']);
    expect(
      within(first)
        .getAllByRole('term')
        .map((name) => name.textContent),
    ).toEqual(['Minute', 'Hour', 'Day (Month)', 'Month', 'Day (Week)']);
    expect(within(first).getByText('Active')).toBeInTheDocument();

    expect(within(row('Backups')).getByText('Inactive')).toBeInTheDocument();
    expect(row('Backups')).toHaveTextContent('Last run: never');
    expect(row('Backups')).toHaveTextContent('Next run: n/a');
    expect(within(row('Announce')).getByText('Processing')).toBeInTheDocument();

    expect(requestsTo(panel, 'GET', '/schedules').map((request) => request.url)).toEqual([
      `${serverApi}/schedules?include=tasks`,
    ]);
    expect(screen.getByRole('button', { name: 'Create schedule' })).toBeInTheDocument();
  });

  it('says so when the server has no schedules', async () => {
    serveSchedules([]);
    openSchedules();
    expect(await screen.findByText('There are no schedules configured for this server')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Schedules' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create schedule' })).toBeInTheDocument();
  });

  it('flashes a failed load under schedules', async () => {
    panel.on(`GET ${serverApi}/schedules`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    openSchedules();
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.queryByRole('button', { name: 'Create schedule' })).not.toBeInTheDocument();
  });

  it('hides Create schedule without schedule.create', async () => {
    serveSchedules();
    openSchedules(['schedule.read', 'schedule.update', 'schedule.delete']);
    await screen.findByRole('listitem', { name: 'Nightly restart' });
    expect(screen.queryByRole('button', { name: 'Create schedule' })).not.toBeInTheDocument();
  });

  it('asks again while a schedule is processing, and shows it Active once the run ends', async () => {
    schedulePolling.intervalMs = 100;
    let polls = 0;
    panel.on(`GET ${serverApi}/schedules`, () => {
      polls += 1;
      return { body: scheduleList([scheduleItem({ id: 3, name: 'Announce', is_processing: polls < 3 })]) };
    });
    openSchedules();
    const announcing = await screen.findByRole('listitem', { name: 'Announce' });
    expect(within(announcing).getByText('Processing')).toBeInTheDocument();
    expect(await within(row('Announce')).findByText('Active')).toBeInTheDocument();
    const asked = polls;
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(polls).toBe(asked);
  });
});

describe('schedules: create', () => {
  const openModal = async (schedules = [restart]) => {
    serveSchedules(schedules);
    const opened = openSchedules();
    await opened.user.click(await screen.findByRole('button', { name: 'Create schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new schedule' });
    return { ...opened, dialog };
  };

  it('opens with the spec defaults and the expression in words', async () => {
    const { dialog } = await openModal();
    expect(within(dialog).getByLabelText('Schedule name')).toHaveValue('');
    expect(within(dialog).getByLabelText('Schedule name')).toHaveAccessibleDescription(
      'A human readable identifier for this schedule.',
    );
    expect(within(dialog).getByLabelText('Minute')).toHaveValue(scheduleFormDefaults.minute);
    expect(within(dialog).getByLabelText('Hour')).toHaveValue('*');
    expect(within(dialog).getByLabelText('Day of month')).toHaveValue('*');
    expect(within(dialog).getByLabelText('Month')).toHaveValue('*');
    expect(within(dialog).getByLabelText('Day of week')).toHaveValue('*');
    expect(within(dialog).getByRole('switch', { name: 'Only When Server Is Online' })).toBeChecked();
    expect(within(dialog).getByRole('switch', { name: 'Schedule Enabled' })).toBeChecked();
    expect(within(dialog).getByTestId('cron-description')).toHaveTextContent('Runs: Every 5 minutes');
  });

  it('describes the expression as it is typed, and says when it cannot', async () => {
    const { dialog, user } = await openModal();
    const description = within(dialog).getByTestId('cron-description');
    await user.clear(within(dialog).getByLabelText('Minute'));
    await user.type(within(dialog).getByLabelText('Minute'), '30');
    await user.clear(within(dialog).getByLabelText('Hour'));
    await user.type(within(dialog).getByLabelText('Hour'), '4');
    await user.clear(within(dialog).getByLabelText('Day of week'));
    await user.type(within(dialog).getByLabelText('Day of week'), '1-5');
    expect(description).toHaveTextContent('Runs: At 04:30 AM, Monday through Friday');

    await user.clear(within(dialog).getByLabelText('Month'));
    await user.type(within(dialog).getByLabelText('Month'), '13');
    expect(description).toHaveTextContent(
      'This expression cannot be described yet; the panel checks it when the schedule is saved.',
    );
  });

  it('shows the form’s messages and sends nothing while a field is wrong', async () => {
    const { dialog, user } = await openModal();
    await user.clear(within(dialog).getByLabelText('Hour'));
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));
    expect(within(dialog).getByLabelText('Schedule name')).toHaveAccessibleDescription(
      scheduleFormMessages.nameRequired,
    );
    expect(within(dialog).getByLabelText('Hour')).toHaveAccessibleDescription(
      scheduleFormMessages.cronRequired,
    );
    expect(within(dialog).getByLabelText('Hour')).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(dialog).getByLabelText('Schedule name'), 'n'.repeat(192));
    expect(within(dialog).getByLabelText('Schedule name')).toHaveAccessibleDescription(
      scheduleFormMessages.nameMax,
    );
    expect(requestsTo(panel, 'POST', '/schedules')).toHaveLength(0);
  });

  it('sends the schedule and adds the answer to the list', async () => {
    panel.on(`POST ${serverApi}/schedules`, (request) => {
      const body = request.body as Record<string, string | boolean>;
      return {
        body: scheduleItem({
          id: 9,
          name: body.name as string,
          cron: {
            minute: body.minute as string,
            hour: body.hour as string,
            day_of_month: body.day_of_month as string,
            month: body.month as string,
            day_of_week: body.day_of_week as string,
          },
          is_active: body.is_active as boolean,
          only_when_online: body.only_when_online as boolean,
          next_run_at: minutesFromNow(60),
        }),
      };
    });
    const { dialog, user } = await openModal([]);
    await user.type(within(dialog).getByLabelText('Schedule name'), '  Morning restart ');
    await user.clear(within(dialog).getByLabelText('Minute'));
    await user.type(within(dialog).getByLabelText('Minute'), '0');
    await user.clear(within(dialog).getByLabelText('Hour'));
    await user.type(within(dialog).getByLabelText('Hour'), '6');
    await user.click(within(dialog).getByRole('switch', { name: 'Only When Server Is Online' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));

    const added = await screen.findByRole('listitem', { name: 'Morning restart' });
    expect(within(added).getByText('Active')).toBeInTheDocument();
    expect(within(added).getByRole('link')).toHaveAttribute('href', '/server/abcd1234/schedules/9');
    expect(requestsTo(panel, 'POST', '/schedules').map((request) => request.body)).toEqual([
      {
        name: 'Morning restart',
        is_active: true,
        only_when_online: false,
        minute: '0',
        hour: '6',
        day_of_month: '*',
        month: '*',
        day_of_week: '*',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('There are no schedules configured for this server')).not.toBeInTheDocument();
  });

  it('shows a refused save inside the modal, under schedule:edit', async () => {
    panel.on(`POST ${serverApi}/schedules`, () =>
      errorEnvelope(400, 'DisplayException', scheduleMessages.invalidCron),
    );
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByLabelText('Schedule name'), 'Broken');
    await user.clear(within(dialog).getByLabelText('Day of month'));
    await user.type(within(dialog).getByLabelText('Day of month'), '31');
    await user.clear(within(dialog).getByLabelText('Month'));
    await user.type(within(dialog).getByLabelText('Month'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));

    const flash = await within(dialog).findByText(scheduleMessages.invalidCron);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.getByRole('dialog', { name: 'Create new schedule' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});
