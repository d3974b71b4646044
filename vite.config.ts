import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { browserModules } from './scripts/browser-modules-plugin.mjs';
import { catalogues } from './scripts/catalogue-plugin.mjs';

// The server's port, as it reads it (`npm run dev` runs both with the same environment).
const serverPort = Number(process.env.PORT?.trim() || 3000);

export default defineConfig({
  root: 'src/web',
  plugins: [react(), catalogues(), browserModules()],
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3's Sass still uses @import and the global functions.
        quietDeps: true,
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
      },
    },
  },
  build: {
    outDir: process.env.WEB_BUILD_DIR ?? '../../dist/web',
    emptyOutDir: true,
    // The CSP allows no inline script, so Vite's inline preload polyfill must stay out.
    modulePreload: { polyfill: false },
    manifest: true,
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
