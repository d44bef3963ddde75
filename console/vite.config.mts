import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The Gateway Management console: built into dist/console of the service (`npm run build:console`), which serves
 * it under /console. `npm run console:dev` serves it with live reload, calling the service at GATEWAY_URL, else at
 * http://localhost:$PORT (3000 unless the service got another PORT): the quickstart's variables.
 */
const gatewayUrl = process.env.GATEWAY_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
export default defineConfig({
  root: here,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Every asset is a file under /console/assets: the page's Content-Security-Policy allows no inline content.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // Mantine marks its modules "use client" for React Server Components; meaningless in this bundle.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: { proxy: { '/api': gatewayUrl } },
});
