import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localesDefine, mergedLocales } from './locales.config.ts';
import { precompress } from './precompress.ts';

// The dev server forwards API calls to a running panel; page GETs stay with Vite so its hot reload works.
const panel = process.env.AERIE_PANEL_URL ?? 'http://127.0.0.1:8080';

const nodeModule = (names: string) => new RegExp(`[\\\\/]node_modules[\\\\/](?:${names})[\\\\/]`);
/** react-i18next's <Trans> and its HTML parser: only pages that use it load them. */
const transModules =
  /[\\/]react-i18next[\\/].*[\\/]Trans\w*\.js$|[\\/](?:html-parse-stringify|void-elements)[\\/]/;
/** Small modules of the app every page shows (flashes, spinner, footer): with the framework, not a file each. */
const everyPage =
  /[\\/]src[\\/](?:stores[\\/]flash-store|components[\\/]ui[\\/](?:flash-message-render|spinner)|components[\\/]layout[\\/]footer|features[\\/]auth[\\/]utils[\\/]intended-address|lib[\\/](?:browser|format-language|page-language|translate-message|use-translated-message)|utils[\\/]capitalize|languages[\\/]languages)\.tsx?$/;
/** And those of every signed-in page (the server list and its queries): with TanStack Query. */
const everySignedInPage =
  /[\\/]src[\\/](?:lib[\\/](?:persisted-state|query-client)|utils[\\/]format-bytes|features[\\/]servers[\\/]api[\\/](?:servers|transformers)|app[\\/]query-provider)\.tsx?$/;

/*
 * Vendor chunks by what needs them, so no page loads a library twice or one it does not use, and the code every
 * page runs comes in one well-compressed file rather than a dozen small ones (rolldown's automatic chunking would
 * otherwise cut chunks by importer sets, e.g. react with i18next but react-dom with the entry):
 * - framework: what the entry itself runs on every page (React, its DOM renderer, the router, i18next), and the
 *   app's few modules every page uses;
 * - query: TanStack Query and the app's modules every signed-in page uses;
 * - forms: react-hook-form and its resolvers, only pages with a form (zod stays in its own chunk, loaded by the
 *   forms' resolvers).
 */
const chunkGroups = [
  {
    name: 'framework',
    test: (id: string) =>
      everyPage.test(id) ||
      (nodeModule(
        'react|react-dom|scheduler|react-router|i18next|i18next-[a-z-]+|react-i18next|use-sync-external-store|@babel[\\\\/]runtime|clsx|zustand',
      ).test(id) &&
        !transModules.test(id)),
    priority: 30,
  },
  {
    name: 'query',
    test: (id: string) => everySignedInPage.test(id) || nodeModule('@tanstack').test(id),
    priority: 20,
  },
  { name: 'forms', test: nodeModule('react-hook-form|@hookform'), priority: 20 },
];

export default defineConfig({
  plugins: [react(), tailwindcss(), mergedLocales(), precompress()],
  define: localesDefine(),
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    rolldownOptions: { output: { codeSplitting: { groups: chunkGroups } } },
  },
  server: {
    proxy: {
      '/api': panel,
      '/auth': {
        target: panel,
        // GET /auth/* pages are the SPA's; the panel answers sign-out and the single sign-on steps (the provider
        // list, the redirect and callback, the checkpoint token).
        bypass: (req) =>
          req.method === 'GET' && req.url !== '/auth/logout' && !req.url?.startsWith('/auth/oauth/')
            ? req.url
            : undefined,
      },
    },
  },
});
