import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once per test file. */
let source: string | undefined;
const axeSource = () => {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
};

/** One rule axe found broken, with the elements (CSS selectors) that break it. */
export interface AxeViolation {
  rule: string;
  impact: ImpactValue | undefined;
  help: string;
  targets: string[];
}

/** The impacts that fail a page: a person using a keyboard or a screen reader is blocked or badly hindered. */
const FAILING: readonly ImpactValue[] = ['serious', 'critical'];

/**
 * The serious and critical axe-core violations of the page as it stands (WCAG 2.x A and AA and axe's best
 * practices). axe is evaluated as source rather than added as a script tag: the app's CSP (`script-src 'self'`)
 * refuses an inline script element, but not code the test runs through the DevTools protocol.
 */
export const axeViolations = async (page: Page): Promise<AxeViolation[]> => {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document) => Promise<unknown> } }).axe.run(document),
  )) as AxeResults;
  return results.violations
    .filter((violation) => FAILING.includes(violation.impact ?? null))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
};
