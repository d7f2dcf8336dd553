import { taskActionLabels, taskFormMessages } from '@aerie/shared/schedules/schedules-forms';
import { scheduleMessages } from '@aerie/shared/schedules/schedules-messages';
import type { ScheduleItem } from '@aerie/shared/schedules/schedules-wire';
import { screen, waitFor, within } from '@testing-library/react';
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

const announce = taskItem({ id: 11, sequence_id: 1, payload: 'say Restarting in 30 seconds' });
const restartTask = taskItem({
  id: 12,
  sequence_id: 2,
  action: 'power',
  payload: 'restart',
  time_offset: 30,
  continue_on_failure: true,
});
const backupTask = taskItem({ id: 13, sequence_id: 3, action: 'backup', payload: 'logs/*\n*.tmp' });

const nightly = (overrides: Partial<ScheduleItem['attributes']> = {}) =>
  scheduleItem({
    id: 4,
    name: 'Nightly restart',
    cron: { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '1-5' },
    last_run_at: minutesFromNow(-30),
    next_run_at: minutesFromNow(180),
    // Out of order on purpose: the page shows them in sequence.
    tasks: [backupTask, announce, restartTask],
    ...overrides,
  });

const serveSchedule = (schedule: ScheduleItem = nightly()) =>
  panel.on(`GET ${serverApi}/schedules/4`, () => ({ body: schedule }));

const openSchedule = ({ permissions, backups = 3 }: { permissions?: string[]; backups?: number } = {}) =>
  openServerPage(panel, 'schedules/4', { server: { feature_limits: { backups } }, permissions });

const tasks = () => screen.getAllByRole('listitem');
/** The schedule's heading, once its status pill says `status`. */
const getHeader = (name: string, status: string) => {
  const heading = screen.getByRole('heading', { name, level: 2 });
  expect(heading.parentElement?.querySelector('[data-status]')).toHaveTextContent(status);
  return heading;
};
const findHeader = (name: string, status: string) => waitFor(() => getHeader(name, status));
const task = (name: string) => screen.getByRole('listitem', { name });

describe('schedule: page', () => {
  it('shows the header, the cron cards and the tasks in sequence', async () => {
    serveSchedule();
    openSchedule();
    expect(await findHeader('Nightly restart', 'Active')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Schedules' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Schedules');
    expect(screen.getByText(/^Last run:/).parentElement).toHaveTextContent(
      'Last run: 30 minutes ago|Next run: in 3 hours',
    );
    expect(requestsTo(panel, 'GET', '/schedules/4').map((request) => request.url)).toEqual([
      `${serverApi}/schedules/4?include=tasks`,
    ]);

    const cards = screen.getByRole('region', { name: 'Cron expression' });
    expect(
      within(cards)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Minute', 'Hour', 'Day (Month)', 'Month', 'Day (Week)']);
    expect(
      within(cards)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['0', '4', '*', '*', '1-5']);
    expect(cards).toHaveTextContent('At 04:00 AM, Monday through Friday');

    expect(tasks().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Task 1: Send Command',
      'Task 2: Send Power Action',
      'Task 3: Create Backup',
    ]);
    const first = task('Task 1: Send Command');
    expect(within(first).getByText('say Restarting in 30 seconds')).toBeInTheDocument();
    expect(within(first).queryByText(/later$/)).not.toBeInTheDocument();
    expect(within(first).queryByText('Continues on Failure')).not.toBeInTheDocument();
    const second = task('Task 2: Send Power Action');
    expect(within(second).getByText('restart')).toBeInTheDocument();
    expect(within(second).getByText('30s later')).toHaveAttribute(
      'title',
      'Waits 30 seconds after the previous task',
    );
    expect(within(second).getByText('Continues on Failure')).toBeInTheDocument();
    const third = task('Task 3: Create Backup');
    expect(within(third).getByText('Ignoring files & folders:')).toBeInTheDocument();
    expect(within(third).getByText(/logs\/\*/)).toHaveTextContent('logs/* *.tmp');

    for (const name of ['Edit', 'New Task', 'Delete', 'Run Now'])
      expect(screen.getByRole('button', { name })).toBeEnabled();
    expect(within(first).getByRole('button', { name: 'Edit task 1' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Delete task 1' })).toBeInTheDocument();
  });

  it('shows a schedule without tasks, without Run Now', async () => {
    serveSchedule(scheduleItem({ id: 4, name: 'Empty', is_active: false }));
    openSchedule();
    expect(await findHeader('Empty', 'Inactive')).toBeInTheDocument();
    expect(screen.getByText('This schedule has no tasks yet.')).toBeInTheDocument();
    expect(screen.getByText(/^Last run:/).parentElement).toHaveTextContent('Last run: n/a|Next run: n/a');
    expect(screen.queryByRole('button', { name: 'Run Now' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Task' })).toBeInTheDocument();
  });

  it('flashes an unknown schedule under schedules, with a way back', async () => {
    panel.on(`GET ${serverApi}/schedules/4`, () =>
      errorEnvelope(404, 'NotFoundHttpException', 'The requested resource could not be found on the server.'),
    );
    openSchedule();
    const flash = await screen.findByText('The requested resource could not be found on the server.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.getByRole('link', { name: 'Back to schedules' })).toHaveAttribute(
      'href',
      '/server/abcd1234/schedules',
    );
  });

  it('shows not-found for an id that is not a number', async () => {
    openServerPage(panel, 'schedules/latest');
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/schedules/latest')).toHaveLength(0);
  });

  it('shows a reader with schedule.read alone no controls', async () => {
    serveSchedule();
    openSchedule({ permissions: ['schedule.read'] });
    const first = await screen.findByRole('listitem', { name: 'Task 1: Send Command' });
    for (const name of ['Edit', 'New Task', 'Delete', 'Run Now'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(within(first).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows Delete only with schedule.delete, and the rest only with schedule.update', async () => {
    serveSchedule();
    const { unmount } = openSchedule({ permissions: ['schedule.read', 'schedule.delete'] });
    await screen.findByRole('listitem', { name: 'Task 1: Send Command' });
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    for (const name of ['Edit', 'New Task', 'Run Now', 'Edit task 1'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    unmount();

    openSchedule({ permissions: ['schedule.read', 'schedule.update'] });
    await screen.findByRole('listitem', { name: 'Task 1: Send Command' });
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    for (const name of ['Edit', 'New Task', 'Run Now', 'Edit task 1', 'Delete task 1'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
  });
});

describe('schedule: edit', () => {
  it('reuses the schedule modal with the schedule’s values and saves to its address', async () => {
    serveSchedule();
    panel.on(`POST ${serverApi}/schedules/4`, (request) => {
      const body = request.body as { name: string; is_active: boolean; minute: string };
      return {
        body: nightly({
          name: body.name,
          is_active: body.is_active,
          cron: { minute: body.minute, hour: '4', day_of_month: '*', month: '*', day_of_week: '1-5' },
        }),
      };
    });
    const { user } = openSchedule();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit schedule' });
    expect(within(dialog).getByLabelText('Schedule name')).toHaveValue('Nightly restart');
    expect(within(dialog).getByLabelText('Minute')).toHaveValue('0');
    expect(within(dialog).getByLabelText('Day of week')).toHaveValue('1-5');
    expect(within(dialog).getByTestId('cron-description')).toHaveTextContent(
      'Runs: At 04:00 AM, Monday through Friday',
    );

    await user.clear(within(dialog).getByLabelText('Schedule name'));
    await user.type(within(dialog).getByLabelText('Schedule name'), 'Early restart');
    await user.clear(within(dialog).getByLabelText('Minute'));
    await user.type(within(dialog).getByLabelText('Minute'), '15');
    await user.click(within(dialog).getByRole('switch', { name: 'Schedule Enabled' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await findHeader('Early restart', 'Inactive')).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/schedules/4').map((request) => request.body)).toEqual([
      {
        name: 'Early restart',
        is_active: false,
        only_when_online: true,
        minute: '15',
        hour: '4',
        day_of_month: '*',
        month: '*',
        day_of_week: '1-5',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('schedule: tasks', () => {
  const openNewTask = async (options: { backups?: number } = {}) => {
    serveSchedule();
    const opened = openSchedule(options);
    await opened.user.click(await screen.findByRole('button', { name: 'New Task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Task' });
    return { ...opened, dialog };
  };

  it('opens New Task as a command at offset 0 that stops the chain, with the spec’s action labels', async () => {
    const { dialog } = await openNewTask();
    const action = within(dialog).getByRole('combobox', { name: 'Action' });
    expect(action).toHaveValue('command');
    expect(
      within(action)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(Object.values(taskActionLabels));
    expect(within(dialog).getByRole('textbox', { name: 'Payload' })).toHaveValue('');
    expect(within(dialog).getByLabelText('Time offset (in seconds)')).toHaveValue('0');
    expect(within(dialog).getByRole('switch', { name: 'Continue on Failure' })).not.toBeChecked();
  });

  it('clears the payload when the action changes, and starts a power action at start', async () => {
    const { dialog, user } = await openNewTask();
    const action = within(dialog).getByRole('combobox', { name: 'Action' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Payload' }), 'say hi');

    await user.selectOptions(action, 'power');
    const power = within(dialog).getByRole('combobox', { name: 'Payload' });
    expect(power).toHaveValue('start');
    expect(
      within(power)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['start', 'Start the server'],
      ['restart', 'Restart the server'],
      ['stop', 'Stop the server'],
      ['kill', 'Terminate the server'],
    ]);
    await user.selectOptions(power, 'kill');

    await user.selectOptions(action, 'command');
    expect(within(dialog).getByRole('textbox', { name: 'Payload' })).toHaveValue('');

    await user.type(within(dialog).getByRole('textbox', { name: 'Payload' }), 'say bye');
    await user.selectOptions(action, 'backup');
    const ignored = within(dialog).getByRole('textbox', { name: 'Ignored Files' });
    expect(ignored).toHaveValue('');
    expect(ignored).toHaveAccessibleDescription(
      "Optional. Files and folders to leave out of this backup, one per line. Left empty, the .pteroignore file in the server's root is used.",
    );
  });

  it('needs a payload unless the task makes a backup', async () => {
    const { dialog, user } = await openNewTask();
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('textbox', { name: 'Payload' })).toHaveAccessibleDescription(
      taskFormMessages.payloadRequired,
    );
    expect(requestsTo(panel, 'POST', '/schedules/4/tasks')).toHaveLength(0);
  });

  it.each([
    ['', taskFormMessages.timeOffsetRequired],
    ['soon', taskFormMessages.timeOffsetInvalid],
    ['-1', taskFormMessages.timeOffsetMin],
    ['901', taskFormMessages.timeOffsetMax],
  ])('words a time offset of %j as the spec does', async (offset, message) => {
    const { dialog, user } = await openNewTask();
    await user.type(within(dialog).getByRole('textbox', { name: 'Payload' }), 'say hi');
    const field = within(dialog).getByLabelText('Time offset (in seconds)');
    await user.clear(field);
    if (offset) await user.type(field, offset);
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(field).toHaveAccessibleDescription(message);
    expect(requestsTo(panel, 'POST', '/schedules/4/tasks')).toHaveLength(0);
  });

  it('adds a power task last with what the form says', async () => {
    panel.on(`POST ${serverApi}/schedules/4/tasks`, (request) => {
      const body = request.body as {
        action: 'power';
        payload: string;
        time_offset: number;
        continue_on_failure: boolean;
      };
      return {
        body: taskItem({
          id: 14,
          sequence_id: 4,
          action: body.action,
          payload: body.payload,
          time_offset: body.time_offset,
          continue_on_failure: body.continue_on_failure,
        }),
      };
    });
    const { dialog, user } = await openNewTask();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Action' }), 'power');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Payload' }), 'stop');
    const offset = within(dialog).getByLabelText('Time offset (in seconds)');
    await user.clear(offset);
    await user.type(offset, '120');
    await user.click(within(dialog).getByRole('switch', { name: 'Continue on Failure' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));

    const added = await screen.findByRole('listitem', { name: 'Task 4: Send Power Action' });
    expect(within(added).getByText('stop')).toBeInTheDocument();
    expect(within(added).getByText('120s later')).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/schedules/4/tasks').map((request) => request.body)).toEqual([
      { action: 'power', payload: 'stop', time_offset: 120, continue_on_failure: true },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('adds a backup task without a payload', async () => {
    panel.on(`POST ${serverApi}/schedules/4/tasks`, () => ({
      body: taskItem({ id: 14, sequence_id: 4, action: 'backup', payload: '' }),
    }));
    const { dialog, user } = await openNewTask();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Action' }), 'backup');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));

    const added = await screen.findByRole('listitem', { name: 'Task 4: Create Backup' });
    expect(within(added).queryByText('Ignoring files & folders:')).not.toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/schedules/4/tasks').map((request) => request.body)).toEqual([
      { action: 'backup', payload: '', time_offset: 0, continue_on_failure: false },
    ]);
  });

  it('refuses a backup task while the server’s backup limit is 0', async () => {
    const { dialog, user } = await openNewTask({ backups: 0 });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Action' }), 'backup');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      "A backup task cannot be created when the server's backup limit is set to 0.",
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent(taskFormMessages.backupLimitZero);
    expect(within(dialog).queryByRole('textbox', { name: 'Ignored Files' })).not.toBeInTheDocument();
    const create = within(dialog).getByRole('button', { name: 'Create Task' });
    expect(create).toBeDisabled();
    await user.click(create);
    expect(requestsTo(panel, 'POST', '/schedules/4/tasks')).toHaveLength(0);

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Action' }), 'command');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(create).toBeEnabled();
  });

  it('edits a task in place and saves it to its address', async () => {
    serveSchedule();
    panel.on(`POST ${serverApi}/schedules/4/tasks/12`, () => ({
      body: taskItem({ ...restartTask.attributes, payload: 'stop', time_offset: 45 }),
    }));
    const { user } = openSchedule();
    const second = await screen.findByRole('listitem', { name: 'Task 2: Send Power Action' });
    await user.click(within(second).getByRole('button', { name: 'Edit task 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Task' });
    expect(within(dialog).getByRole('combobox', { name: 'Action' })).toHaveValue('power');
    expect(within(dialog).getByRole('combobox', { name: 'Payload' })).toHaveValue('restart');
    expect(within(dialog).getByLabelText('Time offset (in seconds)')).toHaveValue('30');
    expect(within(dialog).getByRole('switch', { name: 'Continue on Failure' })).toBeChecked();

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Payload' }), 'stop');
    await user.clear(within(dialog).getByLabelText('Time offset (in seconds)'));
    await user.type(within(dialog).getByLabelText('Time offset (in seconds)'), '45');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() =>
      expect(within(task('Task 2: Send Power Action')).getByText('45s later')).toBeInTheDocument(),
    );
    expect(within(task('Task 2: Send Power Action')).getByText('stop')).toBeInTheDocument();
    expect(tasks()).toHaveLength(3);
    expect(requestsTo(panel, 'POST', '/schedules/4/tasks/12').map((request) => request.body)).toEqual([
      { action: 'power', payload: 'stop', time_offset: 45, continue_on_failure: true },
    ]);
  });

  it('shows a refused task save inside the modal, under schedule:task', async () => {
    panel.on(`POST ${serverApi}/schedules/4/tasks`, () =>
      errorEnvelope(400, 'ServiceLimitExceededException', scheduleMessages.taskLimit(10)),
    );
    const { dialog, user } = await openNewTask();
    await user.type(within(dialog).getByRole('textbox', { name: 'Payload' }), 'say hi');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    const flash = await within(dialog).findByText(scheduleMessages.taskLimit(10));
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(tasks()).toHaveLength(3);
  });

  it('deletes a task after a confirmation, and moves the later ones up', async () => {
    serveSchedule();
    panel.on(`DELETE ${serverApi}/schedules/4/tasks/11`, () => ({ status: 204 }));
    const { user } = openSchedule();
    const first = await screen.findByRole('listitem', { name: 'Task 1: Send Command' });
    await user.click(within(first).getByRole('button', { name: 'Delete task 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm task deletion' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this task? This action cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete Task' }));

    await waitFor(() =>
      expect(tasks().map((item) => item.getAttribute('aria-label'))).toEqual([
        'Task 1: Send Power Action',
        'Task 2: Create Backup',
      ]),
    );
    expect(requestsTo(panel, 'DELETE', '/schedules/4/tasks/11')).toHaveLength(1);
  });
});

describe('schedule: run now', () => {
  it('shows Processing at once, keeps Run Now disabled, and shows Active when the run ends', async () => {
    schedulePolling.intervalMs = 100;
    let running = false;
    let polls = 0;
    panel.on(`GET ${serverApi}/schedules/4`, () => {
      if (running) polls += 1;
      return { body: nightly({ is_processing: running && polls < 3 }) };
    });
    panel.on(`POST ${serverApi}/schedules/4/execute`, () => {
      running = true;
      return { status: 202, body: [], delayMs: 200 };
    });
    const { user } = openSchedule();
    const run = await screen.findByRole('button', { name: 'Run Now' });
    await user.click(run);

    // Nothing but the click makes it Processing: the page only asks again once it shows a run.
    expect(await findHeader('Nightly restart', 'Processing')).toBeInTheDocument();
    expect(run).toBeDisabled();
    await waitFor(() => expect(requestsTo(panel, 'POST', '/schedules/4/execute')).toHaveLength(1));
    expect(await findHeader('Nightly restart', 'Active')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeEnabled();
    expect(polls).toBeGreaterThanOrEqual(3);
  });

  it('keeps Run Now disabled while the schedule is already processing', async () => {
    serveSchedule(nightly({ is_processing: true }));
    openSchedule();
    expect(await findHeader('Nightly restart', 'Processing')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeDisabled();
  });

  it('flashes a refused run under schedules and shows the schedule as the panel has it', async () => {
    serveSchedule();
    panel.on(`POST ${serverApi}/schedules/4/execute`, () =>
      errorEnvelope(400, 'DisplayException', scheduleMessages.noTasks),
    );
    const { user } = openSchedule();
    await user.click(await screen.findByRole('button', { name: 'Run Now' }));
    const flash = await screen.findByText(scheduleMessages.noTasks);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(await findHeader('Nightly restart', 'Active')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeEnabled();
  });
});

describe('schedule: delete', () => {
  it('asks first, then deletes the schedule and goes back to the list', async () => {
    serveSchedule();
    panel.on(`DELETE ${serverApi}/schedules/4`, () => ({ status: 204 }));
    panel.on(`GET ${serverApi}/schedules`, () => ({ body: scheduleList([]) }));
    const { user, router } = openSchedule();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Schedule' });
    expect(dialog).toHaveTextContent(
      'All tasks will be removed and any running processes will be terminated.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo(panel, 'DELETE', '/schedules/4')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete Schedule' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('There are no schedules configured for this server')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234/schedules');
    expect(requestsTo(panel, 'DELETE', '/schedules/4')).toHaveLength(1);
  });

  it('flashes a refused delete and stays on the schedule', async () => {
    serveSchedule();
    panel.on(`DELETE ${serverApi}/schedules/4`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    const { user, router } = openSchedule();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Schedule' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/server/abcd1234/schedules/4');
  });
});
