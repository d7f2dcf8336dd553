/// <reference types="vite/client" />

/** Injected by vite.config.ts (and the test config) from public/locales: see locales.config.ts. */
declare const __AERIE_LOCALES__: { languages: string[]; version: string };

/** cronstrue's per-language files: imported for their effect (they register the language with cronstrue). */
declare module 'cronstrue/locales/*';
