import { panelSettingsFormMessages } from '@aerie/shared/panel-settings/panel-settings-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope } from '@/testing/test-server';

const panel = setUpPanelTestServer();
const admin = pageUser({ root_admin: true, email: 'root@example.com' });

const attributes = {
  app_name: 'Aerie',
  '2fa_required': 0,
  mail_url: '',
  mail_from: 'Aerie <no-reply@localhost>',
  recaptcha_enabled: false,
  recaptcha_site_key: '',
  recaptcha_secret_key_set: false,
  default_language: 'en',
  allocations_enabled: false,
  allocations_range_start: 25565,
  allocations_range_end: 25665,
  sso_required: false,
};

const settingsBody = (overrides: Record<string, unknown> = {}) => ({
  body: { object: 'panel_settings', attributes: { ...attributes, ...overrides } },
});

const patches = () => panel.requests.filter((request) => request.method === 'PATCH');

async function openSettings() {
  panel.on('GET /api/application/settings', () => settingsBody());
  const view = renderApp('/admin/settings', { user: admin });
  await screen.findByRole('heading', { name: 'Settings' });
  const name = await screen.findByLabelText('Product name');
  return { ...view, name };
}

describe('/admin/settings', () => {
  it('shows the saved settings and checks the form before sending', async () => {
    const { user, name } = await openSettings();
    expect(name).toHaveValue('Aerie');
    expect(screen.getByLabelText('Require two-factor authentication')).toHaveValue('0');
    expect(screen.getByLabelText('Sender')).toHaveValue('Aerie <no-reply@localhost>');
    expect(screen.queryByLabelText('Site key')).not.toBeInTheDocument();

    await user.clear(name);
    await user.type(screen.getByLabelText('SMTP URL'), 'http://mail.example.com');
    await user.click(screen.getByRole('switch', { name: /reCAPTCHA/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(panelSettingsFormMessages.appNameRequired)).toBeInTheDocument();
    expect(screen.getByText(panelSettingsFormMessages.mailUrl)).toBeInTheDocument();

    // reCAPTCHA on needs a site key (the secret may already be saved: the panel checks that one).
    await user.type(name, 'Acme');
    await user.clear(screen.getByLabelText('SMTP URL'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(panelSettingsFormMessages.siteKeyRequired)).toBeInTheDocument();
    expect(patches()).toEqual([]);
  });

  it('saves, says so, and sends an empty secret as null so the saved one is kept', async () => {
    panel.on('PATCH /api/application/settings', (request) =>
      settingsBody({ ...(request.body as object), recaptcha_secret_key_set: true }),
    );
    const { user, name } = await openSettings();
    await user.clear(name);
    await user.type(name, 'Acme Hosting');
    await user.selectOptions(screen.getByLabelText('Require two-factor authentication'), '1');
    await user.type(screen.getByLabelText('SMTP URL'), 'smtps://u:p@mail.example.com:465');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(patches().map((request) => request.body)).toEqual([
      {
        app_name: 'Acme Hosting',
        '2fa_required': 1,
        mail_url: 'smtps://u:p@mail.example.com:465',
        mail_from: 'Aerie <no-reply@localhost>',
        recaptcha_enabled: false,
        recaptcha_site_key: null,
        recaptcha_secret_key: null,
        default_language: 'en',
        allocations_enabled: false,
        allocations_range_start: 25565,
        allocations_range_end: 25665,
        sso_required: false,
      },
    ]);
  });

  it('requires single sign-on with its switch, and shows it as saved', async () => {
    panel.on('PATCH /api/application/settings', (request) =>
      settingsBody(request.body as Record<string, unknown>),
    );
    const { user } = await openSettings();
    const sso = screen.getByRole('switch', { name: 'Require single sign-on' });
    expect(sso).toHaveAttribute('aria-checked', 'false');
    expect(
      screen.getByText('Everyone but root admins must sign in through an enabled provider.'),
    ).toBeInTheDocument();
    await user.click(sso);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(patches().map((request) => request.body)).toEqual([
      expect.objectContaining({ sso_required: true }),
    ]);
    expect(screen.getByRole('switch', { name: 'Require single sign-on' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });

  it('turns on client allocations with their port range, checking the range first', async () => {
    panel.on('PATCH /api/application/settings', (request) =>
      settingsBody(request.body as Record<string, unknown>),
    );
    const { user } = await openSettings();
    const allowed = screen.getByRole('switch', { name: 'Let users create allocations' });
    expect(allowed).toHaveAttribute('aria-checked', 'false');
    const start = screen.getByLabelText('First port');
    const end = screen.getByLabelText('Last port');
    expect(start).toHaveValue('25565');
    expect(end).toHaveValue('25665');

    await user.click(allowed);
    await user.clear(start);
    await user.type(start, '80');
    await user.clear(end);
    await user.type(end, '30000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(panelSettingsFormMessages.portRange)).toBeInTheDocument();

    await user.clear(start);
    await user.type(start, '30010');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(panelSettingsFormMessages.allocationsRange)).toBeInTheDocument();
    expect(patches()).toEqual([]);

    await user.clear(start);
    await user.type(start, '30000');
    await user.clear(end);
    await user.type(end, '30100');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(patches().map((request) => request.body)).toEqual([
      expect.objectContaining({
        allocations_enabled: true,
        allocations_range_start: 30000,
        allocations_range_end: 30100,
      }),
    ]);
    expect(screen.getByRole('switch', { name: 'Let users create allocations' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });

  it("shows the panel's 422 under its field", async () => {
    panel.on('PATCH /api/application/settings', () => ({
      status: 422,
      body: {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The recaptcha secret key field is required.',
            meta: { source_field: 'recaptcha_secret_key', rule: 'required' },
          },
        ],
      },
    }));
    const { user } = await openSettings();
    await user.click(screen.getByRole('switch', { name: /reCAPTCHA/ }));
    await user.type(screen.getByLabelText('Site key'), 'site-key');
    expect(screen.getByLabelText('Secret key')).toHaveAccessibleDescription('No secret key is saved yet.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Secret key')).toHaveAccessibleDescription(
        'The recaptcha secret key field is required.',
      ),
    );
    expect(screen.queryByText('Settings saved.')).not.toBeInTheDocument();
  });

  it('sends a test mail, and shows why one could not be sent', async () => {
    panel.on('POST /api/application/settings/mail/test', () => ({ status: 204 }));
    const { user } = await openSettings();
    expect(screen.getByText('Sends a mail to root@example.com with the saved settings.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send test mail' }));
    expect(await screen.findByText('A test mail was sent to root@example.com.')).toBeInTheDocument();

    panel.on('POST /api/application/settings/mail/test', () =>
      errorEnvelope(400, 'DisplayException', 'The test mail could not be sent: connect ECONNREFUSED'),
    );
    await user.click(screen.getByRole('button', { name: 'Send test mail' }));
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('The test mail could not be sent: connect ECONNREFUSED'),
    ).toBeInTheDocument();
  });
});
