import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EPHEMERAL_PORTS } from '../../infra/local/ports';
import { startStack } from '../../infra/local/stack';
import { StackInfo } from '../../infra/local/stack-info';
import { PAGE_BUDGETS } from '../support/web-budgets';
import { benchLighthouse, formatLighthouseRows, LIGHTHOUSE_PAGES, type LighthouseFormFactor } from './lighthouse';
import { benchWeb, formatWebRows, type WebBenchProfile } from './web';

/**
 * The web bench alone: `npx tsx test/bench/web-run.ts [phone|desktop|lighthouse ...]` starts a fresh stack serving
 * the production build; with `STACK_FILE=.local/stack.json` it measures a running `npm start -- --prod` instead.
 * `phone` and `desktop` are the budget rows (BENCH_WEB_RUNS cold loads per page, default 3); `lighthouse` is
 * Lighthouse's mobile and desktop performance of the four first pages (BENCH_LIGHTHOUSE_RUNS, default 3;
 * BENCH_LIGHTHOUSE_FORM_FACTORS=mobile for one). Without an argument: phone, then Lighthouse. BENCH_WEB_PATHS
 * (comma-separated paths of test/support/web-budgets.ts) keeps the budget rows, and Lighthouse's, to those pages.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const asked = process.argv.slice(2).length ? process.argv.slice(2) : ['phone', 'lighthouse'];
const profiles = asked.filter((a) => a !== 'lighthouse') as WebBenchProfile[];
const formFactors = (process.env.BENCH_LIGHTHOUSE_FORM_FACTORS?.split(',') ?? [
  'mobile',
  'desktop',
]) as LighthouseFormFactor[];

const paths = process.env.BENCH_WEB_PATHS?.split(',');
const pages = paths ? PAGE_BUDGETS.filter((page) => paths.includes(page.path)) : undefined;
const lighthousePages = paths ? LIGHTHOUSE_PAGES.filter((page) => paths.includes(page.path)) : undefined;

const measure = async (info: StackInfo) => {
  if (profiles.length) console.log(formatWebRows(await benchWeb(info, { profiles, pages })));
  if (asked.includes('lighthouse')) {
    console.log(`\nLighthouse ${formFactors.join(' and ')}, median of each figure\n`);
    console.log(formatLighthouseRows(await benchLighthouse(info, { formFactors, pages: lighthousePages })));
  }
};

if (process.env.STACK_FILE) {
  await measure(StackInfo.parse(JSON.parse(readFileSync(process.env.STACK_FILE, 'utf8'))));
} else {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-web-bench-'));
  const stack = await startStack({ rootDir, dataDir, ports: EPHEMERAL_PORTS, web: 'prod' });
  try {
    await measure(stack.info);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
