/// <reference types="vite/client" />

/** Injected by vite.config.ts (and the test config) from public/locales: see locales.config.ts. */
declare const __AERIE_LOCALES__: { languages: string[]; version: string };
