import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Plugin } from 'vite';
import type { RuntimeConfig } from '../../shared/config/runtime-config';
import { HASHED_ASSETS_PREFIX, RUNTIME_CONFIG_KEY, securityHeaderLines, WEB_CACHE_CONTROL } from '../definitions/web';
import { acceptedEncoding, type Encoding, encodeBody } from './content-encoding';

/** `dev`: Vite's dev server (instant edits); `prod`: the production build, served as CloudFront serves it. */
export type WebMode = 'dev' | 'prod';

interface WebOptions {
  rootDir: string;
  port: number;
  runtime: { config?: RuntimeConfig };
  mode: WebMode;
  /** Where `prod` builds the app (`{dataDir}/web-dist`), so two stacks never share one build. */
  distDir: string;
  log?: (line: string) => void;
}

const STARTING = '{"message":"The local stack is still starting"}';

/** Serves `/runtime-config.json` from the running stack, as the web stack's S3 object does in the cloud. */
const runtimeConfigPlugin = (runtime: { config?: RuntimeConfig }): Plugin => ({
  name: 'local-runtime-config',
  configureServer(server) {
    server.middlewares.use(`/${RUNTIME_CONFIG_KEY}`, (_request, response) => {
      if (!runtime.config) {
        response.statusCode = 503;
        response.end(STARTING);
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.setHeader('cache-control', 'no-store');
      response.end(JSON.stringify(runtime.config));
    });
  },
});

const startDevWeb = async ({ rootDir, port, runtime }: WebOptions) => {
  const { createServer } = await import('vite');
  const server = await createServer({
    configFile: path.join(rootDir, 'frontend/vite.config.ts'),
    plugins: [runtimeConfigPlugin(runtime)],
    // No CSP for the dev server: its page runs Vite's inline scripts (HMR, React refresh).
    server: { port, strictPort: port !== 0, host: '127.0.0.1', headers: securityHeaderLines() },
    logLevel: 'warn',
    clearScreen: false,
  });
  await server.listen();
  const address = server.httpServer?.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { url: `http://localhost:${actual}`, stop: () => server.close() };
};

/**
 * `vite build` of the web app into `outDir`, in a child process: Vite takes the build's NODE_ENV from the
 * environment, and a test runner's `test` would give the development builds of React and its libraries.
 */
export const buildWebApp = ({
  rootDir,
  outDir,
  manifest = false,
}: {
  rootDir: string;
  outDir: string;
  manifest?: boolean;
}) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(rootDir, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        path.join(rootDir, 'frontend/vite.config.ts'),
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
        ...(manifest ? ['--manifest'] : []),
      ],
      { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output}`))));
  });

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * CloudFront's compression, as documented: for text types between 1,000 bytes and 10 MB, Brotli when the viewer
 * accepts it, else gzip.
 */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json)|image\/svg\+xml)/;
const compressible = (type: string, size: number) => COMPRESSIBLE.test(type) && size >= 1_000 && size <= 10_000_000;

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  lastModified: string;
  cacheControl: string;
  encoded: Map<Encoding, Buffer>;
}

/**
 * The production build served as the web stack's CloudFront serves it (infra/stacks/web-stack.ts): the same
 * security headers and Cache-Control from infra/definitions/web.ts, compression, `/` as index.html, index.html
 * for any key the bucket lacks (the single-page-app fallback, status 200), GET and HEAD only; and
 * `/runtime-config.json` from the running stack, as the web-config stack writes it.
 */
export const serveWebBuild = async ({ distDir, port, runtime }: Pick<WebOptions, 'distDir' | 'port' | 'runtime'>) => {
  const root = path.resolve(distDir);
  const files = new Map<string, Promise<StaticFile | undefined>>();
  // The CloudFront headers, with the CSP of the local home (its APIs, identity provider and broker on localhost).
  const headers = securityHeaderLines({ home: 'local' });

  const load = async (key: string): Promise<StaticFile | undefined> => {
    if (key.startsWith('.vite/')) return undefined;
    const file = path.join(root, key);
    // A key that climbs out of the build (`..`) is a key the bucket does not have.
    if (!file.startsWith(`${root}${path.sep}`)) return undefined;
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const body = await readFile(file);
    return {
      body,
      type: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      lastModified: info.mtime.toUTCString(),
      cacheControl: key.startsWith(HASHED_ASSETS_PREFIX) ? WEB_CACHE_CONTROL.hashedAssets : WEB_CACHE_CONTROL.other,
      encoded: new Map(),
    };
  };
  // The build does not change while the stack runs: each file is read (and compressed) once. Only the build's own
  // files stay: a key it lacks (every app address, any guessed path) is forgotten once answered, or the map would
  // grow with every distinct address asked for (issue 19).
  const staticFile = (key: string) => {
    let file = files.get(key);
    if (!file) {
      file = load(key);
      files.set(key, file);
      const forget = () => files.delete(key);
      file.then((found) => found ?? forget(), forget);
    }
    return file;
  };

  const send = (request: IncomingMessage, response: ServerResponse, file: StaticFile) => {
    response.setHeader('content-type', file.type);
    response.setHeader('cache-control', file.cacheControl);
    response.setHeader('etag', file.etag);
    response.setHeader('last-modified', file.lastModified);
    if (request.headers['if-none-match'] === file.etag) {
      response.statusCode = 304;
      response.end();
      return;
    }
    let body = file.body;
    if (compressible(file.type, file.body.length)) {
      response.setHeader('vary', 'accept-encoding');
      const encoding = acceptedEncoding(request.headers['accept-encoding'], ['br', 'gzip']);
      if (encoding !== 'identity') {
        if (!file.encoded.has(encoding)) file.encoded.set(encoding, encodeBody(file.body, encoding));
        body = file.encoded.get(encoding)!;
        response.setHeader('content-encoding', encoding);
      }
    }
    response.setHeader('content-length', body.length);
    response.end(request.method === 'HEAD' ? undefined : body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      // CloudFront refuses methods a behaviour does not allow with 403.
      response.statusCode = 403;
      response.end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.statusCode = 400;
      response.end();
      return;
    }
    const key = pathname === '/' ? 'index.html' : pathname.slice(1);
    if (key === RUNTIME_CONFIG_KEY) {
      response.setHeader('content-type', 'application/json');
      response.setHeader('cache-control', WEB_CACHE_CONTROL.other);
      response.statusCode = runtime.config ? 200 : 503;
      response.end(runtime.config ? JSON.stringify(runtime.config) : STARTING);
      return;
    }
    const file = (await staticFile(key)) ?? (await staticFile('index.html'));
    if (!file) {
      response.statusCode = 500;
      response.end('The web build has no index.html');
      return;
    }
    send(request, response, file);
  };

  const server = createHttpServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('Web server:', error);
      if (!response.headersSent) response.statusCode = 500;
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${actual}`,
    /** How many files are held in memory: at most the build's own. */
    cachedFiles: () => files.size,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

const startProdWeb = async ({ rootDir, distDir, log, ...rest }: WebOptions) => {
  const started = Date.now();
  // The manifest tells the web bench which chunks a page loads; the server does not serve it (the cloud has none).
  await buildWebApp({ rootDir, outDir: distDir, manifest: true });
  log?.(`web app built in ${Date.now() - started} ms`);
  return serveWebBuild({ distDir, ...rest });
};

/** The web app: Vite's dev server, or the production build served as users get it. */
export const startWeb = (options: WebOptions) =>
  options.mode === 'prod' ? startProdWeb(options) : startDevWeb(options);
