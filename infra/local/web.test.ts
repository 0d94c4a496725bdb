import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { RuntimeConfig } from '../../shared/config/runtime-config';
import { securityHeaderLines, WEB_CACHE_CONTROL } from '../definitions/web';
import { serveWebBuild } from './web';

const INDEX = '<!doctype html><title>app</title>';
const CHUNK = `export const big = ${JSON.stringify('x'.repeat(5_000))};`;

let distDir: string;
let server: Awaited<ReturnType<typeof serveWebBuild>>;
const runtime: { config?: RuntimeConfig } = {};

beforeAll(async () => {
  distDir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(distDir, 'assets'));
  writeFileSync(path.join(distDir, 'index.html'), INDEX);
  writeFileSync(path.join(distDir, 'assets/index-abc123.js'), CHUNK);
  writeFileSync(path.join(distDir, 'favicon.svg'), '<svg/>');
  mkdirSync(path.join(distDir, '.vite'));
  writeFileSync(path.join(distDir, '.vite/manifest.json'), '{}');
  server = await serveWebBuild({ distDir, port: 0, runtime });
});

afterAll(async () => {
  await server.stop();
  rmSync(distDir, { recursive: true, force: true });
});

/** A raw request (fetch would decompress and hide the encoding). */
const get = (pathname: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${server.url}${pathname}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );

describe('the local production web server', () => {
  it('sends the security headers of infra/definitions/web.ts on every answer, with the local CSP', async () => {
    for (const answer of [await get('/'), await get('/assets/index-abc123.js'), await get('/nope', {}, 'POST')]) {
      for (const [name, value] of Object.entries(securityHeaderLines({ home: 'local' }))) {
        expect(answer.headers[name]).toBe(value);
      }
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves index.html for / and for any path the build lacks, as the distribution does', async () => {
    // The build's manifest is for the bench: the deployed site has none.
    for (const pathname of [
      '/',
      '/dashboard/devices/demo-device-1',
      '/admin',
      '/assets/gone-123.js',
      '/.vite/manifest.json',
    ]) {
      const answer = await get(pathname);
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe(INDEX);
      expect(answer.headers['cache-control']).toBe(WEB_CACHE_CONTROL.other);
    }
  });

  it('holds only the build’s own files in memory, however many app addresses are asked for (issue 19)', async () => {
    for (let i = 0; i < 300; i++) {
      const answer = await get(`/devices/device-${i}/charts?range=${i}`);
      expect(answer.body.toString()).toBe(INDEX);
    }
    await get('/favicon.svg');
    // index.html and favicon.svg (and the chunk if an earlier test read it): never one per address.
    expect(server.cachedFiles()).toBeLessThanOrEqual(3);
  });

  it('caches hashed assets for good, compressed with gzip or Brotli as the browser accepts', async () => {
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['cache-control']).toBe(WEB_CACHE_CONTROL.hashedAssets);
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(CHUNK);

    const gzip = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(gzip.body).toString()).toBe(CHUNK);
    expect(gzip.body.length).toBeLessThan(CHUNK.length / 10);

    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
  });

  it('leaves files under 1,000 bytes uncompressed, as CloudFront does', async () => {
    const answer = await get('/favicon.svg', { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toBe('image/svg+xml');
  });

  it('answers a revalidation of an unchanged file with 304', async () => {
    const first = await get('/');
    const again = await get('/', { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers GET and HEAD only, and never serves a file outside the build', async () => {
    expect((await get('/', {}, 'POST')).status).toBe(403);
    const head = await get('/assets/index-abc123.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const climbing = await get('/%2e%2e/%2e%2e/etc/passwd');
    expect(climbing.body.toString()).toBe(INDEX);
  });

  it('serves the running stack runtime configuration, uncached, once the stack has it', async () => {
    delete runtime.config;
    expect((await get('/runtime-config.json')).status).toBe(503);
    runtime.config = { env: 'local' } as RuntimeConfig;
    const answer = await get('/runtime-config.json');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe(WEB_CACHE_CONTROL.other);
    expect(JSON.parse(answer.body.toString())).toEqual({ env: 'local' });
  });
});
