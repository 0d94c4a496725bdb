import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EPHEMERAL_PORTS } from '../../infra/local/ports';
import { startStack } from '../../infra/local/stack';
import { StackInfo } from '../../infra/local/stack-info';
import { benchWeb, formatWebRows, type WebBenchProfile } from './web';

/**
 * The web bench alone: `npx tsx test/bench/web-run.ts [phone|desktop ...]` starts a fresh stack serving the
 * production build; with `STACK_FILE=.local/stack.json` it measures a running `npm start -- --prod` instead.
 * BENCH_WEB_RUNS cold loads per page (default 3).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const profiles = (process.argv.slice(2).length ? process.argv.slice(2) : ['phone']) as WebBenchProfile[];

if (process.env.STACK_FILE) {
  const info = StackInfo.parse(JSON.parse(readFileSync(process.env.STACK_FILE, 'utf8')));
  console.log(formatWebRows(await benchWeb(info, { profiles })));
} else {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-web-bench-'));
  const stack = await startStack({ rootDir, dataDir, ports: EPHEMERAL_PORTS, web: 'prod' });
  try {
    console.log(formatWebRows(await benchWeb(stack.info, { profiles })));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
