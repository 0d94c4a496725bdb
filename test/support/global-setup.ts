import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Starts a private local stack for the integration, authorization-matrix and end-to-end tests: its own
 * data directory and free ports, so it neither needs nor disturbs a running `npm start`; `--ephemeral` also keeps the
 * demo devices from reporting (docs/decisions/047-live-demo-devices.md), so no data moves under a test. The browser tests run
 * against the production build, served as CloudFront serves it (what users get; no cold dev compile on the
 * first page); `TEST_WEB=dev` runs them against Vite's dev server instead.
 */
export default async function globalSetup() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const rootDir = path.resolve(import.meta.dirname, '../..');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-test-'));
  const stackFile = path.join(dataDir, 'stack.json');
  const child = spawn(
    process.execPath,
    [
      path.join(rootDir, 'node_modules/tsx/dist/cli.mjs'),
      'infra/local/start.ts',
      '--data-dir',
      dataDir,
      '--ephemeral',
      ...(process.env.TEST_WEB === 'dev' ? [] : ['--prod']),
    ],
    {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    },
  );
  // 'close' comes after the child's output is all read; its exit code can be set before that.
  const closed = new Promise((resolve) => child.once('close', resolve));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 90_000;
  const ready = () => {
    try {
      // A fresh data directory: the file appears (atomically) only when this stack is ready.
      return existsSync(stackFile) && Boolean(JSON.parse(readFileSync(stackFile, 'utf8')).endpoints);
    } catch {
      return false;
    }
  };
  while (!ready()) {
    if (child.exitCode !== null) {
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      throw new Error(`The test stack exited early (code ${child.exitCode}):\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`The test stack was not ready within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.env.TEST_STACK_FILE = stackFile;
  (globalThis as { testStack?: unknown }).testStack = { child, dataDir, output: () => output };
}
