import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, desktopConfig, type Flags, type Result } from 'lighthouse';
import { saveArtifacts } from 'lighthouse/core/lib/asset-saver.js';
import { chromium } from 'playwright-core';
import type { StackInfo } from '../../infra/local/stack-info';
import { CHROMIUM_PATH } from '../support/browser';
import { signIn } from './web';

/**
 * Lighthouse's performance score (issue 36) for the four pages a newcomer meets first: the guest dashboard, a public
 * device's page, the login page and a signed-in person's device page, and the API reference (its 2 s), each on Lighthouse's mobile and desktop
 * settings, against the production build the local stack serves. Lighthouse (from npm) drives Debian's Chromium,
 * started by chrome-launcher; the signed-in page's session is made in that same browser first (Playwright over the
 * DevTools protocol), and Lighthouse's storage reset keeps cookies and local storage while it empties the HTTP cache,
 * so every load is cold and the signed-in one stays signed in.
 *
 * Lighthouse simulates its throttling (Lantern): it loads the page at full speed and computes what a phone on slow 4G
 * with a 4× slower CPU would see from the trace. The CPU part scales the tasks it observed, so on a loaded machine the
 * main-thread figures (TBT, and the score through it) come out worse than on a quiet one: compare figures taken back
 * to back, and read TBT, LCP, CLS and the bytes beside the score.
 */

export type LighthouseFormFactor = 'mobile' | 'desktop';

export interface LighthousePage {
  name: string;
  path: string;
  as: 'guest' | 'user@example.com';
}

export const LIGHTHOUSE_PAGES: readonly LighthousePage[] = [
  { name: 'guest /dashboard', path: '/dashboard', as: 'guest' },
  { name: 'guest device page (public)', path: '/dashboard/devices/demo-device-2', as: 'guest' },
  { name: 'guest /login', path: '/login', as: 'guest' },
  { name: 'signed-in device page', path: '/dashboard/devices/demo-device-1', as: 'user@example.com' },
  // Issue 36 asks it shown in under 2 s (decision 100).
  { name: 'guest API reference', path: '/dashboard/api/reference', as: 'guest' },
];

export interface LighthouseRow {
  page: string;
  formFactor: LighthouseFormFactor;
  runs: number;
  /** 0–100, the performance category. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Script bytes transferred (as sent: compressed), kB of 1,000 bytes, and how many scripts. */
  jsKb: number;
  scripts: number;
  /** Everything transferred, kB. */
  totalKb: number;
}

export interface LighthouseOptions {
  /** Runs per page and form factor; each figure is the median. @default BENCH_LIGHTHOUSE_RUNS or 3 */
  runs?: number;
  /** @default ['mobile', 'desktop'] */
  formFactors?: readonly LighthouseFormFactor[];
  pages?: readonly LighthousePage[];
  /**
   * A folder for every run's full report (JSON, to open in the Lighthouse viewer) and its artifacts (`-artifacts/`:
   * the trace as `defaultPass.trace.json`, for the DevTools Performance panel; all of it for test/bench/lantern-graph.ts).
   * @default BENCH_LIGHTHOUSE_REPORTS
   */
  reportDir?: string;
}

const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];

const CONFIGS: Record<LighthouseFormFactor, Config> = {
  // Lighthouse's default configuration is its mobile one (Moto G Power, slow 4G, 4× CPU).
  mobile: { extends: 'lighthouse:default', settings: { onlyCategories: ['performance'] } },
  desktop: { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: ['performance'] } },
};

const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;

interface ResourceSummaryItem {
  resourceType: string;
  transferSize: number;
  requestCount: number;
}

const figures = (lhr: Result) => {
  const summary = (lhr.audits['resource-summary']?.details as { items?: ResourceSummaryItem[] } | undefined)?.items;
  const of = (type: string) => summary?.find((item) => item.resourceType === type);
  return {
    score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    speedIndexMs: numeric(lhr, 'speed-index'),
    jsKb: (of('script')?.transferSize ?? Number.NaN) / 1000,
    scripts: of('script')?.requestCount ?? Number.NaN,
    totalKb: (of('total')?.transferSize ?? Number.NaN) / 1000,
  };
};

const median = (values: readonly number[]) => {
  const known = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return known.length ? known[Math.floor(known.length / 2)]! : Number.NaN;
};

/** Runs Lighthouse `runs` times on each page and form factor; returns the medians. */
export const benchLighthouse = async (info: StackInfo, options: LighthouseOptions = {}): Promise<LighthouseRow[]> => {
  const web = info.endpoints.web;
  if (!web) throw new Error('The Lighthouse bench needs the stack started with its web app (web: "prod")');
  const runs = options.runs ?? Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const reportDir = options.reportDir ?? process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const rows: LighthouseRow[] = [];
  for (const page of options.pages ?? LIGHTHOUSE_PAGES) {
    // A browser per page: the signed-in page's session must not reach the guest pages.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
    try {
      if (page.as !== 'guest') {
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        try {
          await signIn(browser.contexts()[0]!, web, page.as);
        } finally {
          await browser.close();
        }
      }
      for (const formFactor of options.formFactors ?? ['mobile', 'desktop']) {
        const results: ReturnType<typeof figures>[] = [];
        for (let run = 0; run < runs; run++) {
          const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error' };
          const result = await lighthouse(`${web}${page.path}`, flags, CONFIGS[formFactor]);
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          if (result.lhr.runtimeError) {
            throw new Error(`Lighthouse on ${page.path}: ${result.lhr.runtimeError.message}`);
          }
          results.push(figures(result.lhr));
          if (reportDir) {
            const name = `${page.name.replace(/[^\w]+/g, '-')}-${formFactor}-${run + 1}.json`;
            writeFileSync(path.join(reportDir, name), JSON.stringify(result.lhr));
            // The whole gathering: its trace (`defaultPass.trace.json`, for the DevTools Performance panel), network
            // log and settings, which test/bench/lantern-graph.ts simulates again.
            await saveArtifacts(result.artifacts, path.join(reportDir, name.replace(/\.json$/, '-artifacts')));
          }
        }
        const of = (pick: (r: ReturnType<typeof figures>) => number) => median(results.map(pick));
        rows.push({
          page: page.name,
          formFactor,
          runs,
          score: of((r) => r.score),
          fcpMs: Math.round(of((r) => r.fcpMs)),
          lcpMs: Math.round(of((r) => r.lcpMs)),
          tbtMs: Math.round(of((r) => r.tbtMs)),
          cls: Math.round(of((r) => r.cls) * 1000) / 1000,
          speedIndexMs: Math.round(of((r) => r.speedIndexMs)),
          jsKb: Math.round(of((r) => r.jsKb) * 10) / 10,
          scripts: of((r) => r.scripts),
          totalKb: Math.round(of((r) => r.totalKb) * 10) / 10,
        });
      }
    } finally {
      chrome.kill();
    }
  }
  return rows;
};

/** The rows as a table; the score's target (issue 36) is 90 on mobile, CLS's 0.05. */
export const formatLighthouseRows = (rows: readonly LighthouseRow[]): string => {
  const header = ['page', 'form factor', 'score', 'FCP', 'LCP', 'TBT', 'CLS', 'Speed Index', 'JS sent', 'all sent'];
  const ms = (value: number) => (Number.isNaN(value) ? '—' : `${value} ms`);
  const lines = rows.map((r) => [
    r.page,
    r.formFactor,
    `${r.score}${r.formFactor === 'mobile' && r.score < 90 ? ' !' : ''}`,
    ms(r.fcpMs),
    ms(r.lcpMs),
    ms(r.tbtMs),
    `${r.cls}${r.cls > 0.05 ? ' !' : ''}`,
    ms(r.speedIndexMs),
    `${r.jsKb} kB (${r.scripts} files)`,
    `${r.totalKb} kB`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines].map((l) => l.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
};
