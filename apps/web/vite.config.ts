import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localesDefine } from './locales.config.ts';
import { precompress } from './precompress.ts';

// The dev server forwards API calls to a running panel; page GETs stay with Vite so its hot reload works.
const panel = process.env.AERIE_PANEL_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  define: localesDefine(),
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { target: 'es2022', assetsInlineLimit: 0 },
  server: {
    proxy: {
      '/api': panel,
      '/auth': {
        target: panel,
        bypass: (req) => (req.method === 'GET' && req.url !== '/auth/logout' ? req.url : undefined),
      },
    },
  },
});
