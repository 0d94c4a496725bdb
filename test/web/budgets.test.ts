import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFERRED_BUDGETS, PAGE_BUDGETS } from '../support/web-budgets';
import { buildWeb, gzipBytes, kb, type Manifest, readManifest, scriptsOf } from '../support/web-build';

/**
 * The web app's JS budgets (issue 13), over one production build made for this run: what each page loads before
 * it can draw, and what each weight loaded on demand adds. Prints the figures beside their budgets.
 */
let outDir: string;
let manifest: Manifest;

const pages = PAGE_BUDGETS.map((budget) => ({ ...budget, kb: 0 }));
const deferred = DEFERRED_BUDGETS.map((budget) => ({ ...budget, kb: 0 }));

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'device-data-web-'));
  const started = Date.now();
  await buildWeb(outDir);
  manifest = readManifest(outDir);
  const entry = scriptsOf(manifest, ['index.html']);
  for (const page of pages) page.kb = kb(gzipBytes(outDir, scriptsOf(manifest, page.modules)));
  for (const weight of deferred) {
    const own = [...scriptsOf(manifest, weight.modules)].filter((file) => !entry.has(file));
    weight.kb = kb(gzipBytes(outDir, own));
  }
  const line = (name: string, figure: number, budget: number) =>
    `  ${name.padEnd(36)} ${figure.toFixed(1).padStart(7)} kB   budget ${String(budget).padStart(4)} kB${figure > budget ? '   OVER' : ''}`;
  console.log(
    [
      `JS gzipped, production build (${((Date.now() - started) / 1000).toFixed(1)} s):`,
      ...pages.map((page) => line(page.name, page.kb, page.jsKb)),
      'loaded on demand, beyond the entry:',
      ...deferred.map((weight) => line(weight.name, weight.kb, weight.jsKb)),
    ].join('\n'),
  );
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('web app JS budgets', () => {
  it('builds every module a budget names as a chunk of its own', () => {
    const named = [...new Set([...pages, ...deferred].flatMap((budget) => budget.modules))];
    // A module merged into the entry (or renamed) would silently drop out of the figures below.
    expect(named.filter((module) => !manifest[module])).toEqual([]);
  });

  it.each(pages)('$name loads at most $jsKb kB of JS gzipped before it draws', ({ kb: figure, jsKb }) => {
    expect(figure).toBeLessThanOrEqual(jsKb);
  });

  it.each(deferred)('$name adds at most $jsKb kB gzipped where it is shown', ({ kb: figure, jsKb }) => {
    expect(figure).toBeLessThanOrEqual(jsKb);
  });
});
