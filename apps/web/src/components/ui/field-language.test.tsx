import { render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { Field } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { flashActions } from '@/stores/flash-store';

const german = import.meta.glob<Record<string, unknown>>('../../../public/locales/de/*.json', {
  eager: true,
  import: 'default',
});
const resource = (namespace: string) =>
  Object.entries(german).find(([path]) => path.endsWith(`/${namespace}.json`))?.[1] ?? {};
const messages = resource('messages') as { texts: Record<string, string>; templates: Record<string, string> };

async function germanPage() {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: 'de',
    ns: ['strings', 'messages'],
    defaultNS: 'strings',
    resources: { de: { strings: resource('strings'), messages } },
    interpolation: { escapeValue: false },
  });
  return instance;
}

describe('messages in the page language', () => {
  it("shows a form's check in German, the field name translated inside it", async () => {
    const i18n = await germanPage();
    render(
      <I18nextProvider i18n={i18n}>
        <Field label="Vorname" name="first" error="The first name field is required." />
        <Field label="E-Mail" name="login" error="A username or email must be provided." />
      </I18nextProvider>,
    );
    const template = messages.templates['The {{attribute}} field is required.'] as string;
    const attribute = (resource('messages') as { attributes: Record<string, string> }).attributes[
      'first name'
    ];
    const expected = template.replace('{{attribute}}', attribute as string);
    await waitFor(() =>
      expect(screen.getByText(expected.charAt(0).toUpperCase() + expected.slice(1))).toBeInTheDocument(),
    );
    expect(
      screen.getByText(messages.texts['A username or email must be provided.'] as string),
    ).toBeInTheDocument();
  });

  it("shows the API's answer in a flash in German, under the German title", async () => {
    const i18n = await germanPage();
    render(
      <I18nextProvider i18n={i18n}>
        <FlashMessageRender />
      </I18nextProvider>,
    );
    flashActions().clearFlashes();
    flashActions().addError({ message: 'The selected language is invalid.' });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).not.toHaveTextContent('The selected language is invalid.'));
    expect(alert).toHaveTextContent((resource('strings') as { flash: { error: string } }).flash.error);
    flashActions().clearFlashes();
  });
});
