import type account from '../../public/locales/en/account.json';
import type auth from '../../public/locales/en/auth.json';
import type dashboard from '../../public/locales/en/dashboard.json';
import type strings from '../../public/locales/en/strings.json';

// English is the reference language: its files type every `t('…')` key, so a typo fails the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'strings';
    resources: {
      strings: typeof strings;
      auth: typeof auth;
      dashboard: typeof dashboard;
      account: typeof account;
    };
  }
}
