import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { apiReferencePlugin } from './build/api-reference';
import { baseMapPlugin } from './build/base-map';
import { contractsInTasksPlugin } from './build/contracts-in-tasks';
import { inlineEntryStylesPlugin } from './build/inline-entry-styles';
import { stripRouteSummariesPlugin } from './build/strip-route-summaries';

const frontendDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web app's build and dev server. No proxy: the app reads its API base URLs from
 * `/runtime-config.json`, which the local stack serves through a plugin it adds when it calls
 * `createServer({ configFile })` (and whose port it overrides); the cloud serves the same file from S3.
 */
export default defineConfig({
  root: frontendDir,
  plugins: [
    react(),
    stripRouteSummariesPlugin(),
    contractsInTasksPlugin(),
    baseMapPlugin(),
    apiReferencePlugin(),
    inlineEntryStylesPlugin(),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks (issue 13): left to itself the bundler made a chunk of nearly every module two
        // pages share, and a phone's first page waited on twenty requests, six at a time over HTTP/1.1. React
        // and the router change least, so they keep a chunk of their own; app code three or more chunks share
        // goes into one. Each page still loads only its own screens and weights. zod (every page parses with the
        // contracts) is with them, and so is its configuration (src/lib/zod-config.ts): that chunk runs before the one
        // that builds the contracts' schemas, which must see the configuration. The alerts feature's modules and the
        // charts' rules stay out of the shared chunk: once the contracts wait for a task of their own (decision 112),
        // the bundler counted them as shared and every page, a guest's too, would have carried the alerts' contract.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler|zod)[\\/]|frontend[\\/]src[\\/]lib[\\/]zod-config\.ts$/,
              priority: 2,
            },
            {
              name: 'app',
              test: /frontend[\\/]src[\\/](?!features[\\/](alerts|sensor-data[\\/]chart-rules))/,
              minShareCount: 3,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
  },
});
