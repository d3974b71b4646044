import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverPort = Number(process.env.DEV_SERVER_PORT ?? 3000);

export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The CSP allows no inline script, so Vite's inline preload polyfill must stay out.
    modulePreload: { polyfill: false },
    // One ~170 KB (gzip) bundle: an operator uses every page, so splitting would only add requests.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
