import type account from '@locales/en/account.json';
import type activity from '@locales/en/activity.json';
import type admin from '@locales/en/admin.json';
import type auth from '@locales/en/auth.json';
import type dashboard from '@locales/en/dashboard.json';
import type server from '@locales/en/server.json';
import type strings from '@locales/en/strings.json';

// Type-only imports (erased from the bundle). English is the reference language: its files type every `t('…')` key, so a typo fails the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'strings';
    resources: {
      strings: typeof strings;
      auth: typeof auth;
      dashboard: typeof dashboard;
      account: typeof account;
      server: typeof server;
      admin: typeof admin;
      activity: typeof activity;
    };
  }
}
