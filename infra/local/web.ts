import path from 'node:path';
import type { Plugin } from 'vite';
import { createServer } from 'vite';
import type { RuntimeConfig } from '../../shared/config/runtime-config';

/** Serves `/runtime-config.json` from the running stack, as the web stack's S3 object does in the cloud. */
const runtimeConfigPlugin = (runtime: { config?: RuntimeConfig }): Plugin => ({
  name: 'local-runtime-config',
  configureServer(server) {
    server.middlewares.use('/runtime-config.json', (_request, response) => {
      if (!runtime.config) {
        response.statusCode = 503;
        response.end('{"message":"The local stack is still starting"}');
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.setHeader('cache-control', 'no-store');
      response.end(JSON.stringify(runtime.config));
    });
  },
});

export const startWeb = async ({
  rootDir,
  port,
  runtime,
}: {
  rootDir: string;
  port: number;
  runtime: { config?: RuntimeConfig };
}) => {
  const server = await createServer({
    configFile: path.join(rootDir, 'frontend/vite.config.ts'),
    plugins: [runtimeConfigPlugin(runtime)],
    server: { port, strictPort: port !== 0, host: '127.0.0.1' },
    logLevel: 'warn',
    clearScreen: false,
  });
  await server.listen();
  const address = server.httpServer?.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { url: `http://localhost:${actual}`, stop: () => server.close() };
};
