import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_WEBHOOK_ID } from '../../infra/local/demo-webhook';
import { axeViolations } from '../support/axe';
import { contextOptions, launchBrowser, signInAs, waitForHeaderUser, web } from '../support/browser';
import { freshMajor, seedRelease } from '../support/code-releases';
import { freshDevice } from '../support/sensor-data';
import { apiAs, type DemoEmail, tokenOf } from '../support/stack';

type Who = DemoEmail | 'guest';

/** A rollout to open, made before the pages are (the demo holds none). */
let rolloutPath = '';

/**
 * The pages of issue 18, then those issues 36 to 41 added (the API reference, alerts, a webhook, a rollout, the device
 * page's quality panel and "Use this data", the campaign's quality panel with its calibration form and preview), each
 * as a person who may see it, with what shows once its content has arrived.
 */
const PAGES: readonly { name: string; who: Who; path: string | (() => string); ready: string }[] = [
  { name: 'login', who: 'guest', path: '/login', ready: '[data-testid="login-email"]' },
  { name: 'guest dashboard', who: 'guest', path: '/dashboard', ready: 'h1' },
  { name: 'privacy', who: 'guest', path: '/privacy', ready: '[data-testid="measurements-switch"]' },
  {
    name: 'guest public device',
    who: 'guest',
    path: '/dashboard/devices/demo-device-2',
    ready: '[data-testid="export-panel"]',
  },
  { name: 'dashboard', who: 'user@example.com', path: '/dashboard', ready: 'h1' },
  {
    name: 'device',
    who: 'user@example.com',
    path: '/dashboard/devices/demo-device-1',
    ready: '[data-testid="export-panel"]',
  },
  { name: 'organization', who: 'approved@example.com', path: '/dashboard/organizations/demo-org-1', ready: 'h1' },
  { name: 'campaign', who: 'approved@example.com', path: '/dashboard/campaigns/demo-campaign-1', ready: 'h1' },
  { name: 'admin relations', who: 'admin@example.com', path: '/admin/relations', ready: 'table' },
  {
    name: 'API reference',
    who: 'guest',
    path: '/dashboard/api/reference',
    ready: '[data-testid="api-reference-doc"]',
  },
  {
    name: 'device quality panel and "Use this data"',
    who: 'user@example.com',
    path: '/dashboard/devices/demo-device-1',
    ready: '[data-testid="quality-panel"], [data-testid="use-data"]',
  },
  {
    name: 'campaign quality panel',
    who: 'approved@example.com',
    path: '/dashboard/campaigns/demo-campaign-1',
    ready: '[data-testid="campaign-calibration-preview"][data-painted]',
  },
  { name: 'alerts', who: 'user@example.com', path: '/dashboard/alerts', ready: '[data-testid="alerts-page"]' },
  { name: 'admin alerts', who: 'admin@example.com', path: '/admin/alerts', ready: '[data-testid="alerts-page"]' },
  {
    name: 'webhook',
    who: 'approved@example.com',
    path: `/dashboard/webhooks/${DEMO_WEBHOOK_ID}`,
    ready: '[data-testid="webhook-target"]',
  },
  { name: 'rollout', who: 'admin@example.com', path: () => rolloutPath, ready: '[data-testid="rollout-title"]' },
];

let browser: Browser;
/** One context per person, signed in once for the whole file. */
const contexts = new Map<Who, Promise<BrowserContext>>();

const contextFor = (who: Who) => {
  if (!contexts.has(who)) {
    contexts.set(
      who,
      (async () => {
        const context = await browser.newContext(contextOptions());
        if (who !== 'guest') {
          const page = await context.newPage();
          await signInAs(page, who, '/dashboard');
          await waitForHeaderUser(page, who);
          await page.close();
        }
        return context;
      })(),
    );
  }
  return contexts.get(who)!;
};

/** Opens a page and waits until it stands still: content shown, requests done, nothing marked busy. */
const open = async (page: Page, path: string, ready: string) => {
  await page.goto(web(path));
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15_000 });
};

beforeAll(async () => {
  browser = await launchBrowser();
  const release = await seedRelease({ results: ['Pass'], version: `${freshMajor()}.0.0` });
  const device = await freshDevice();
  const rollout = await apiAs('code-releases', await tokenOf('admin@example.com')).createRollout({
    params: { id: release.id },
    body: { target: { kind: 'devices', deviceIds: [device.id] } },
  });
  rolloutPath = `/admin/rollouts/${encodeURIComponent(rollout.id)}`;
});

afterAll(async () => {
  for (const context of contexts.values()) await (await context).close();
  await browser?.close();
});

describe('end to end: accessibility (axe-core)', () => {
  const width = contextOptions().viewport?.width ?? 1280;

  // One test per page, in order: the first page of each person signs them in, the next ones reuse the context.
  it.each(PAGES)(`$name ($who) has no serious or critical violation at ${width} px`, async ({ who, path, ready }) => {
    const page = await (await contextFor(who)).newPage();
    try {
      await open(page, typeof path === 'string' ? path : path(), ready);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
