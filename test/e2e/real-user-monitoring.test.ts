import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CollectedEvent, RouteSummary } from '../../infra/local/emulators/rum';
import { keepScreenshot, NARROW, pagePerTest, WIDE, web } from '../support/browser';
import { stack } from '../support/stack';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

const collector = () => stack().endpoints.rum!;

const collected = async (): Promise<CollectedEvent[]> =>
  ((await (await fetch(`${collector()}/events`)).json()) as { events: CollectedEvent[] }).events;

/** Polls the collector until `found` picks something out of the events of this test's session(s). */
const waitForEvents = async <T>(
  sessions: () => Promise<Set<string>>,
  found: (events: CollectedEvent[]) => T | undefined,
  timeoutMs = 20_000,
): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mine = await sessions();
    const events = (await collected()).filter((e) => e.sessionId && mine.has(e.sessionId));
    const result = found(events);
    if (result !== undefined) return result;
    if (Date.now() > until) {
      const seen = events.map((e) => `${e.type} on ${e.pageId ?? '(no page)'}`);
      throw new Error(`The collector never got the events; it got: ${seen.join(', ') || 'nothing'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

describe('end to end: real-user monitoring (spec §9 analytics id, decision 040)', () => {
  it('measures nothing until the visitor switches it on, then reports views and vitals by route, never by id; off stops it', async () => {
    const page = testPage();
    const before = new Set((await collected()).map((e) => e.sessionId));
    // The sessions this browser started: every one the collector did not know before this test.
    const ours = async () => new Set((await collected()).map((e) => e.sessionId!).filter((id) => !before.has(id)));

    // Off until asked: a visit sends nothing.
    await page.goto(web('/dashboard/devices/demo-device-2'));
    await page.getByTestId('device-title').getByText('Lake buoy').waitFor();
    await page.getByTestId('footer-privacy').click();
    await page.getByRole('heading', { name: 'Privacy' }).waitFor();
    const toggle = page.getByRole('switch', { name: 'Share performance measurements' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByTestId('measurements-state').textContent()).toBe('Off: nothing is measured.');
    expect((await ours()).size).toBe(0);

    await toggle.click();
    await page.getByTestId('measurements-state').getByText('On: this browser sends').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      await keepScreenshot(page, path.join(ARTIFACTS, `privacy-${viewport.width}.png`), { fullPage: true });
    }
    await page.setViewportSize(WIDE);

    // A device page, loaded whole: its view is named by the route, its vitals reported when the page is left.
    await page.goto(web('/dashboard/devices/demo-device-2'));
    await page.getByTestId('device-title').getByText('Lake buoy').waitFor();
    // The client loads after the page, when the browser is idle: its view of this page reaching the collector says it
    // runs here. On a loaded machine it was not yet running when the person clicked, and this page's LCP went unsent.
    await waitForEvents(ours, (events) =>
      events.find((e) => e.type === 'com.amazon.rum.page_view_event' && e.pageId === '/dashboard/devices/:id'),
    );
    // A person's first input ends the page's largest paint, which is when the web client reports LCP. The web-vitals
    // library reports it once the browser is idle after the input: a page left at once on a loaded machine (a CI run
    // once) is gone before then. So the test stays on the page until the report has reached the collector.
    await page.getByTestId('device-title').click();
    const lcp = await waitForEvents(ours, (events) =>
      events.find(
        (e) => e.type === 'com.amazon.rum.largest_contentful_paint_event' && e.pageId === '/dashboard/devices/:id',
      ),
    );
    await page.goto(web('/dashboard'));
    await page.getByTestId('dashboard-guest').waitFor();
    expect(lcp.details.value).toEqual(expect.any(Number));
    expect(lcp.details.value as number).toBeGreaterThan(0);
    const views = await waitForEvents(ours, (events) => {
      const pages = events.filter((e) => e.type === 'com.amazon.rum.page_view_event').map((e) => e.pageId);
      return pages.includes('/dashboard') && pages.includes('/dashboard/devices/:id') ? pages : undefined;
    });
    expect(views).toContain('/privacy');
    // No event of ours names the device: not its page id, not anywhere in what was sent.
    const mine = await ours();
    const sent = (await collected()).filter((e) => e.sessionId && mine.has(e.sessionId));
    expect(JSON.stringify(sent)).not.toContain('demo-device-2');

    // The collector's per-route view, what the cloud dashboard draws.
    const summary = (await (await fetch(`${collector()}/summary`)).json()) as Record<string, RouteSummary>;
    expect(summary['/dashboard/devices/:id']!.views).toBeGreaterThanOrEqual(1);
    expect(summary['/dashboard/devices/:id']!.LCP).toEqual(expect.any(Number));

    // Off again: later visits send nothing more.
    await page.goto(web('/privacy'));
    await page.getByRole('switch', { name: 'Share performance measurements' }).click();
    await page.getByTestId('measurements-state').getByText('Off: nothing is measured.').waitFor();
    const dashboardViews = async () =>
      (await collected())
        .filter((e) => e.sessionId && !before.has(e.sessionId) && e.type === 'com.amazon.rum.page_view_event')
        .filter((e) => e.pageId === '/dashboard' || e.pageId === '/dashboard/datasets').length;
    const viewsWhenOff = await dashboardViews();
    await page.goto(web('/dashboard/datasets'));
    await page.locator('h1').first().waitFor();
    // Longer than the client's 5-second dispatch interval: anything recorded would have been sent.
    await page.waitForTimeout(6500);
    await page.goto(web('/dashboard'));
    await page.getByTestId('dashboard-guest').waitFor();
    await page.waitForTimeout(1000);
    expect(await dashboardViews()).toBe(viewsWhenOff);
  });
});
