import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import type { StackInfo } from '../../infra/local/stack-info';
import { launchBrowser } from '../support/browser';
import { DEFERRED_BUDGETS, PAGE_BUDGETS, type PageBudget } from '../support/web-budgets';
import { gzipBytes, type Manifest, readManifest, scriptsOf } from '../support/web-build';

/**
 * The web bench (issue 13): each page of test/support/web-budgets.ts opened cold (empty cache) in Chromium,
 * against the production build the local stack serves (`startStack({ web: 'prod' })`), on a throttled "phone".
 * Returns one row per page, each figure beside its budget; prints nothing itself.
 *
 * - JS, in kB of 1,000 bytes, the scripts the page fetched until it went quiet, told apart by the build's manifest:
 *   - `jsKb`: those of the page's budget (the modules it loads before it draws, PageBudget.modules), counted as its
 *     budget is (test/web/budgets.test.ts): each file gzipped whole. What the server sent differs by a little: as
 *     CloudFront does, it sends a file under 1,000 bytes as it is.
 *   - `laterJsKb`: the other scripts it fetched after drawing, which no budget names (the chunks of the panels under
 *     the first view, say): the gzipped bodies received (Resource Timing's `encodedBodySize`).
 *   - `deferredJsKb`: the weights of DEFERRED_BUDGETS it fetched (the map, uPlot), as received, beside the sum of the
 *     budgets of the weights it fetched a file of their own of (a chunk two weights share names neither).
 *   The browser asks for gzip only: Chromium would take Brotli (localhost counts as secure), about 7 % smaller, but
 *   the budgets are gzip's, as issue 13 measured them.
 * - LCP: the last `largest-contentful-paint` entry before the bench stops watching (no input happens).
 * - TTI: Lighthouse's definition, computed from the page's own long tasks and Resource Timing: the first window
 *   of 5 s after the first contentful paint with no long task (> 50 ms) and at most 2 requests in flight
 *   starts a quiet period; TTI is the end of the last long task before it (at least FCP and DOMContentLoaded).
 * - content: when the page's main content is drawn: the map's canvas (dashboards), every chart (device page),
 *   the Authenticator's form (login), the reference's first route (API reference: issue 36 asks under 2 s).
 *
 * The "phone" is Lighthouse's mobile profile as DevTools applies it: 4x CPU slowdown, 562.5 ms round trips,
 * 1,474.56 kbit/s down, 675 kbit/s up, a 412 x 823 screen. Times on a shared machine vary from run to run:
 * each figure is the median of `runs` cold loads.
 */

export type WebBenchProfile = 'phone' | 'desktop';

export interface WebBenchRow {
  page: string;
  path: string;
  profile: WebBenchProfile;
  runs: number;
  /** The scripts of the page's budget that it fetched, each file gzipped as the budget counts it, kB. */
  jsKb: number;
  jsBudgetKb: number;
  /** The other scripts it fetched, but for the deferred weights, as received (gzipped), kB. */
  laterJsKb: number;
  /** The deferred weights it fetched (MapLibre where a map shows), as received (gzipped), kB. */
  deferredJsKb: number;
  /** The budgets of the deferred weights it fetched, summed. */
  deferredBudgetKb: number;
  scripts: number;
  fcpMs: number;
  lcpMs: number;
  lcpBudgetMs: number;
  ttiMs: number;
  ttiBudgetMs: number;
  contentMs?: number;
}

export interface WebBenchOptions {
  /** Cold loads per page (median reported). @default BENCH_WEB_RUNS or 3 */
  runs?: number;
  /** @default ['phone'] */
  profiles?: readonly WebBenchProfile[];
  /** Which pages of PAGE_BUDGETS to open. @default all */
  pages?: readonly PageBudget[];
}

const PROFILES = {
  phone: {
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    cpuSlowdown: 4,
    network: { latency: 562.5, downloadThroughput: (1_474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 },
  },
  desktop: {
    viewport: { width: 1350, height: 940 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    cpuSlowdown: 1,
    network: undefined,
  },
} as const;

/** Where each page's main content is drawn, tested in the page. */
const CONTENT: Record<string, string> = {
  '/dashboard': 'map',
  '/login': 'login',
  '/dashboard/api/reference': 'reference',
};
const contentKind = (path: string) => CONTENT[path] ?? (path.includes('/devices/') ? 'charts' : 'map');

const QUIET_MS = 5_000;
const WATCH_LIMIT_MS = 45_000;

/**
 * Installed before any script of the page: collects paints, long tasks and when the main content showed. Page
 * functions hold no named inner functions: tsx names them with a helper the page does not have.
 */
const instrument = (kind: string) => {
  const bench = {
    lcp: 0,
    longTasks: [] as [number, number][],
    contentAt: undefined as number | undefined,
  };
  (window as unknown as { __bench: typeof bench }).__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.startTime + entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const watch = new MutationObserver(() => {
    if (bench.contentAt !== undefined) return;
    const charts = document.querySelectorAll('[data-testid="sensor-chart"]').length;
    const drawn =
      kind === 'login'
        ? Boolean(document.querySelector('[data-amplify-authenticator] form'))
        : kind === 'reference'
          ? Boolean(document.querySelector('[data-testid="api-reference-doc"] [data-testid="api-reference-operation"]'))
          : kind === 'map'
            ? // A phone's map is its preview until opened (decision 101): the plot drawn is the content.
              Boolean(
                document.querySelector(
                  '[data-testid="devices-map-canvas"][data-drawn="true"], [data-testid="devices-map-preview"] svg',
                ),
              )
            : charts > 0 && document.querySelectorAll('[data-testid="sensor-chart"][data-painted]').length === charts;
    if (drawn) {
      bench.contentAt = performance.now();
      watch.disconnect();
    }
  });
  watch.observe(document, { subtree: true, childList: true, attributes: true });
};

interface Collected {
  lcp: number;
  fcp: number;
  dcl: number;
  now: number;
  longTasks: [number, number][];
  contentAt?: number;
  resources: { name: string; start: number; end: number; bytes: number }[];
}

const collect = (page: Page): Promise<Collected> =>
  page.evaluate(() => {
    const bench = (window as unknown as { __bench: { lcp: number; longTasks: [number, number][]; contentAt?: number } })
      .__bench;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return {
      lcp: bench.lcp,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
      dcl: navigation?.domContentLoadedEventEnd ?? 0,
      now: performance.now(),
      longTasks: bench.longTasks,
      contentAt: bench.contentAt,
      resources: [
        ...(navigation ? [{ name: navigation.name, start: 0, end: navigation.responseEnd, bytes: 0 }] : []),
        ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
          name: entry.name,
          start: entry.startTime,
          end: entry.responseEnd,
          bytes: entry.encodedBodySize,
        })),
      ],
    };
  });

/** Times when more than two requests were in flight, as [start, end) intervals. */
const networkBusy = (resources: Collected['resources']): [number, number][] => {
  const edges = resources.flatMap((r): [number, number][] => [
    [r.start, 1],
    [r.end, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const busy: [number, number][] = [];
  let inFlight = 0;
  let since = 0;
  for (const [time, change] of edges) {
    const before = inFlight;
    inFlight += change;
    if (before <= 2 && inFlight > 2) since = time;
    if (before > 2 && inFlight <= 2) busy.push([since, time]);
  }
  return busy;
};

/** Lighthouse's time to interactive over what was collected; undefined while no quiet window has passed. */
export const timeToInteractive = (c: Collected): number | undefined => {
  const busy = [...c.longTasks, ...networkBusy(c.resources)].sort((a, b) => a[0] - b[0]);
  let quietFrom = c.fcp;
  for (const [start, end] of busy) {
    if (end <= quietFrom) continue;
    if (start - quietFrom >= QUIET_MS) break;
    quietFrom = Math.max(quietFrom, end);
  }
  if (c.now - quietFrom < QUIET_MS) return undefined;
  const lastTask = c.longTasks.filter(([, end]) => end <= quietFrom).reduce((last, [, end]) => Math.max(last, end), 0);
  return Math.max(c.fcp, c.dcl, lastTask);
};

const isScript = (url: string) => /\.m?js$/.test(new URL(url).pathname);

/** Signs `email` in within `context` (its cookies then carry the session to every page of it). */
export const signIn = async (context: BrowserContext, web: string, email: string) => {
  const page = await context.newPage();
  await page.goto(`${web}/login?destination=${encodeURIComponent('/dashboard')}`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(DEMO_PASSWORD);
  await page.locator('[data-amplify-authenticator] form[data-amplify-form] button[type="submit"]').click();
  await page.getByTestId('dashboard-email').waitFor({ timeout: 30_000 });
  await page.close();
};

const throttle = async (cdp: CDPSession, profile: WebBenchProfile) => {
  const { cpuSlowdown, network } = PROFILES[profile];
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  if (network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
};

/** What the bench tells apart in the build the stack serves (`{dataDir}/web-dist`, built with its manifest). */
interface BuildScripts {
  distDir: string;
  manifest: Manifest;
  /**
   * Each deferred weight's scripts beyond what the entry loads anyway, by URL path, with the weights that load it: a
   * file two weights share (uPlot's chunk, or Amplify's, which the live view's credentials and the login forms load)
   * names both.
   */
  deferred: Map<string, string[]>;
  /** Each deferred weight's budget, by its name. */
  deferredBudgets: Map<string, number>;
}

const buildScripts = (info: StackInfo): BuildScripts => {
  const distDir = path.join(info.dataDir, 'web-dist');
  if (!existsSync(path.join(distDir, '.vite/manifest.json'))) {
    throw new Error(`No production build in ${distDir}: start the stack with web: 'prod'`);
  }
  const manifest = readManifest(distDir);
  const entry = scriptsOf(manifest, ['index.html']);
  const deferred = new Map<string, string[]>();
  for (const weight of DEFERRED_BUDGETS) {
    for (const file of scriptsOf(manifest, weight.modules)) {
      if (!entry.has(file)) deferred.set(`/${file}`, [...(deferred.get(`/${file}`) ?? []), weight.name]);
    }
  }
  const deferredBudgets = new Map(DEFERRED_BUDGETS.map((weight) => [weight.name, weight.jsKb]));
  return { distDir, manifest, deferred, deferredBudgets };
};

const loadOnce = async (
  context: BrowserContext,
  web: string,
  budget: PageBudget,
  profile: WebBenchProfile,
  build: BuildScripts,
) => {
  const page = await context.newPage();
  try {
    await page.addInitScript(instrument, contentKind(budget.path));
    await throttle(await context.newCDPSession(page), profile);
    await page.goto(`${web}${budget.path}`, { waitUntil: 'load', timeout: 120_000 });
    const started = Date.now();
    let collected = await collect(page);
    let tti = timeToInteractive(collected);
    while ((tti === undefined || collected.contentAt === undefined) && Date.now() - started < WATCH_LIMIT_MS) {
      await page.waitForTimeout(500);
      collected = await collect(page);
      tti = timeToInteractive(collected);
    }
    const scripts = collected.resources
      .filter((r) => r.bytes > 0 && isScript(r.name))
      .map((r) => ({ ...r, path: new URL(r.name).pathname }));
    const received = (list: typeof scripts) => list.reduce((sum, r) => sum + r.bytes, 0) / 1000;
    const budgeted = new Set([...scriptsOf(build.manifest, budget.modules)].map((file) => `/${file}`));
    const own = scripts.filter((r) => budgeted.has(r.path));
    const deferred = scripts.filter((r) => build.deferred.has(r.path));
    // A weight is held to its budget where the page fetched a file of its own, not only one it shares.
    const weights = new Set(
      deferred.map((r) => build.deferred.get(r.path)!).flatMap((names) => (names.length === 1 ? names : [])),
    );
    return {
      jsKb: gzipBytes(build.distDir, new Set(own.map((r) => r.path.slice(1)))) / 1000,
      laterJsKb: received(scripts.filter((r) => !budgeted.has(r.path) && !build.deferred.has(r.path))),
      deferredJsKb: received(deferred),
      deferredBudgetKb: [...weights].reduce((sum, name) => sum + build.deferredBudgets.get(name)!, 0),
      scripts: scripts.length,
      fcpMs: collected.fcp,
      lcpMs: collected.lcp,
      ttiMs: tti ?? Number.NaN,
      contentMs: collected.contentAt,
    };
  } finally {
    await page.close();
  }
};

const median = (values: readonly (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined && !Number.isNaN(v)).sort((a, b) => a - b);
  return known.length ? known[Math.floor(known.length / 2)] : undefined;
};

/** Opens each page `runs` times cold and returns its medians beside its budgets. */
export const benchWeb = async (info: StackInfo, options: WebBenchOptions = {}): Promise<WebBenchRow[]> => {
  const web = info.endpoints.web;
  if (!web) throw new Error('The web bench needs the stack started with its web app (web: "prod")');
  const runs = options.runs ?? Number(process.env.BENCH_WEB_RUNS ?? 3);
  const build = buildScripts(info);
  const rows: WebBenchRow[] = [];
  const browser: Browser = await launchBrowser();
  try {
    for (const profile of options.profiles ?? ['phone']) {
      const { viewport, deviceScaleFactor, isMobile, hasTouch } = PROFILES[profile];
      for (const budget of options.pages ?? PAGE_BUDGETS) {
        const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch });
        await context.setExtraHTTPHeaders({ 'accept-encoding': 'gzip, deflate' });
        try {
          if (budget.as !== 'guest') await signIn(context, web, budget.as);
          const loads: Awaited<ReturnType<typeof loadOnce>>[] = [];
          for (let run = 0; run < runs; run++) loads.push(await loadOnce(context, web, budget, profile, build));
          const of = (pick: (load: (typeof loads)[number]) => number | undefined) => median(loads.map(pick));
          const ms = (value: number | undefined) => (value === undefined ? Number.NaN : Math.round(value));
          const tenth = (value: number | undefined) => Math.round((value ?? Number.NaN) * 10) / 10;
          rows.push({
            page: budget.name,
            path: budget.path,
            profile,
            runs,
            jsKb: tenth(of((l) => l.jsKb)),
            jsBudgetKb: budget.jsKb,
            laterJsKb: tenth(of((l) => l.laterJsKb)),
            deferredJsKb: tenth(of((l) => l.deferredJsKb)),
            deferredBudgetKb: tenth(of((l) => l.deferredBudgetKb)),
            scripts: ms(of((l) => l.scripts)),
            fcpMs: ms(of((l) => l.fcpMs)),
            lcpMs: ms(of((l) => l.lcpMs)),
            lcpBudgetMs: budget.lcpMs,
            ttiMs: ms(of((l) => l.ttiMs)),
            ttiBudgetMs: budget.ttiMs,
            contentMs: of((l) => l.contentMs) === undefined ? undefined : ms(of((l) => l.contentMs)),
          });
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
};

/** The rows as a table, each figure with its budget (`!` where over it). */
export const formatWebRows = (rows: readonly WebBenchRow[]): string => {
  const cell = (value: number, budget: number | undefined, unit: string) =>
    `${Number.isNaN(value) ? '—' : value}${unit}${budget === undefined ? '' : ` / ${budget}${unit}${value > budget ? ' !' : ''}`}`;
  const header = [
    'page',
    'profile',
    'JS gz / budget',
    'later JS',
    'deferred (map, charts) / budget',
    'LCP / budget',
    'TTI / budget',
    'content',
  ];
  const lines = rows.map((r) => [
    r.page,
    r.profile,
    `${cell(r.jsKb, r.jsBudgetKb, ' kB')} (${r.scripts} files)`,
    r.laterJsKb ? `${r.laterJsKb} kB` : '—',
    r.deferredJsKb ? cell(r.deferredJsKb, r.deferredBudgetKb, ' kB') : '—',
    cell(r.lcpMs, r.lcpBudgetMs, ' ms'),
    cell(r.ttiMs, r.ttiBudgetMs, ' ms'),
    r.contentMs === undefined ? '—' : `${r.contentMs} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines].map((l) => l.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
};
