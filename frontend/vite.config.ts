import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const frontendDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web app's build and dev server. No proxy: the app reads its API base URLs from
 * `/runtime-config.json`, which the local stack serves through a plugin it adds when it calls
 * `createServer({ configFile })` (and whose port it overrides); the cloud serves the same file from S3.
 */
export default defineConfig({
  root: frontendDir,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: {
    port: 5173,
    strictPort: true,
  },
});
