import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { FIRING_PAGE } from '../../frontend/src/features/alerts/alert-rules';
import { createAlertTable } from '../../functions/_shared/alerts/alert-table';
import { alertsAs } from '../support/alerts';
import { keepScreenshot, pagePerTest, signInAs, web } from '../support/browser';
import { shadeColumns } from '../support/chart-pixels';
import { eventually, freshDevice, ingest } from '../support/sensor-data';
import { apiAs, documentClient, stack, uniqueId } from '../support/stack';
import { freshPerson, signInPerson } from './people-fixtures';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const MIN = 60_000;
/** The canvas colours of a preview's and an alert's shade (app/tokens.css, light scheme). */
const PREVIEW = [234, 88, 12] as [number, number, number];
const FIRING = [220, 38, 38] as [number, number, number];
/** The bar and the panel read again every 15 s: the most a person waits for what the worker and the sweep did. */
const POLL_WAIT_MS = 45_000;
const TEST_MS = 180_000;

const width = () => (process.env.E2E_WIDTH === '375' ? 375 : 1280);

/** The share of a chart's columns its overlay shades in a colour. */
const shaded = async (page: Page, testId: string, rgb: [number, number, number]) => {
  const chart = page.getByTestId(testId).locator('[data-testid="sensor-chart"][data-painted]').first();
  await chart.waitFor();
  const columns = await shadeColumns(chart, rgb);
  return { count: columns.filter(Boolean).length, width: columns.length, columns };
};

describe('end to end: alerts', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it(
    'a person tunes a threshold rule with the preview, a reading past it fires: the banner, its link to the shaded band on the chart, acknowledged',
    async () => {
      const person = await freshPerson();
      const device = await freshDevice({ ownerToken: person.token });
      // Three hours of readings every 5 minutes, with one spike of PM2.5 over 35 for 20 minutes an hour and a half ago.
      const end = Math.floor(Date.now() / MIN) * MIN - 40 * MIN;
      await ingest(
        device,
        Array.from({ length: 36 }, (_, i) => {
          const t = end - (35 - i) * 5 * MIN;
          const spike = t >= end - 70 * MIN && t < end - 50 * MIN;
          return { timestamp: t, values: { pm2_5: spike ? 44 : 12 } };
        }),
      );
      const page = testPage();
      const devicePath = `/dashboard/devices/${device.id}`;
      await signInPerson(page, person, devicePath);
      await page.getByTestId('alerts').waitFor();
      await page.getByTestId('alert-rules-empty').waitFor();

      // The form, by keyboard from the New rule button: the rule's name, its limit, then the preview.
      await page.getByTestId('alert-rule-new').click();
      const form = page.locator('.rule-form');
      await form.getByLabel('Name').fill('PM2.5 over 35');
      await form.getByLabel('Limit').fill('35');
      await form.getByText('Empty: 31.5 (10 % of the limit back from it).').waitFor();
      await page.getByTestId('rule-form-preview').focus();
      await page.keyboard.press('Enter');
      const summary = page.getByTestId('rule-preview-summary');
      await summary.getByText(/^Would have fired once in these 7 days \(36 readings\)\.$/).waitFor();
      // Where it would have fired, drawn on the measurement's chart: the spike's 20 minutes of its 7 days.
      const preview = await shaded(page, 'rule-preview-chart', PREVIEW);
      expect(preview.count).toBeGreaterThanOrEqual(1);
      expect(preview.count / preview.width).toBeLessThan(0.05);
      await page.getByTestId('rule-preview-chart-caption').getByText('Limit 35').waitFor();
      await keepScreenshot(page, path.join(ARTIFACTS, `alerts-preview-${width()}.png`));
      await form.getByRole('button', { name: 'Create rule' }).click();
      // The rule is listed once the create has answered; read before that, the API has none yet.
      await page.locator('[data-testid^="alert-rule-state-"]').first().waitFor();
      const [rule] = (await alertsAs(person.token).listRules({ query: { deviceId: device.id } })).items;
      await page.getByTestId(`alert-rule-state-${rule!.id}`).getByText('Quiet').waitFor();

      // Half an hour ago the device read 80.
      await page.waitForTimeout(1_100);
      const firedAt = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
      await ingest(device, [{ timestamp: firedAt, values: { pm2_5: 80 } }]);
      const banner = page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({
        hasText: 'PM2.5 over 35: firing',
      });
      await banner.waitFor({ timeout: POLL_WAIT_MS });
      expect(await banner.textContent()).toContain('was 80 µg/m³');
      await page.getByTestId(`alert-rule-state-${rule!.id}`).getByText('Firing').waitFor({ timeout: POLL_WAIT_MS });

      // The banner's link opens the device's charts around that moment, the firing period shaded from it to now.
      await banner.locator(`a[href*="?at="]`).click();
      await page.waitForURL(`${web(devicePath)}?at=${firedAt}`);
      const band = await shaded(page, 'sensor-data', FIRING);
      // From the alert (3 h into a 3.5 h range) to the range's end: about a seventh of the chart, at its right.
      expect(band.count / band.width).toBeGreaterThan(0.08);
      expect(band.count / band.width).toBeLessThan(0.25);
      expect(band.columns.slice(0, Math.floor(band.width * 0.7)).some(Boolean)).toBe(false);
      await page
        .getByTestId('sensor-overlay-pm2_5')
        .getByText(/PM2\.5 over 35 firing: .* – now/)
        .waitFor();
      await keepScreenshot(page.getByTestId('sensor-data'), path.join(ARTIFACTS, `alerts-band-${width()}.png`));

      // Acknowledged from the panel: who and when, read back through the API.
      const [alert] = (await alertsAs(person.token).listEvents({ query: { deviceId: device.id } })).items;
      await page.getByTestId('alerts-firing').getByRole('button', { name: 'Acknowledge' }).click();
      await page.getByTestId('alerts-firing').getByTestId(`alert-acknowledged-${alert!.id}`).waitFor();
      const acknowledged = (await alertsAs(person.token).listEvents({ query: { deviceId: device.id } })).items[0]!;
      expect(acknowledged.acknowledgedBy).toBe(person.id);
    },
    TEST_MS,
  );

  it(
    "a silent device's alert fires and resolves, on the device and on the person's alerts page",
    async () => {
      const person = await freshPerson();
      const device = await freshDevice({ ownerToken: person.token });
      await ingest(device, [{ timestamp: Date.now() - 10 * MIN, values: { pm2_5: 8 } }]);
      const rule = await alertsAs(person.token).createRule({
        body: {
          name: 'Gone quiet',
          target: { kind: 'device', id: device.id },
          condition: { kind: 'silence', afterSeconds: 120 },
          enabled: true,
        },
      });
      const page = testPage();
      await signInPerson(page, person, '/dashboard/alerts');
      // The stack's sweep (every 10 s) sees it past its time; the page reads again every 15 s.
      const firing = page.getByTestId('alerts-page-firing').getByRole('row').filter({ hasText: 'Gone quiet' });
      await firing.waitFor({ timeout: POLL_WAIT_MS });
      expect(await firing.getByRole('link').getAttribute('href')).toMatch(
        new RegExp(`^/dashboard/devices/${device.id}\\?at=\\d+$`),
      );
      // The recent alerts below say the same: firing since the sweep saw it.
      await page
        .getByTestId('alerts-page-recent')
        .getByRole('row')
        .filter({ hasText: 'Gone quiet' })
        .getByText('Firing')
        .waitFor({ timeout: POLL_WAIT_MS });
      await keepScreenshot(page, path.join(ARTIFACTS, `alerts-page-${width()}.png`));

      await ingest(device, [{ timestamp: Date.now(), values: { pm2_5: 8 } }]);
      await page.goto(web(`/dashboard/devices/${device.id}`));
      await page.getByTestId(`alert-rule-state-${rule.id}`).getByText('Quiet').waitFor({ timeout: POLL_WAIT_MS });
      const history = page.getByTestId('alert-history').getByRole('row').filter({ hasText: 'Gone quiet' });
      await history.getByText('Resolved').waitFor({ timeout: POLL_WAIT_MS });
    },
    TEST_MS,
  );

  it(
    "staff see every device's alerts on /admin/alerts: a person's firing rule by name, value and device, linked at its time",
    async () => {
      const person = await freshPerson();
      const device = await freshDevice({ ownerToken: person.token });
      const rule = await alertsAs(person.token).createRule({
        body: {
          name: `Staff sees PM2.5 over 35 ${Date.now()}`,
          target: { kind: 'device', id: device.id },
          condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 0 },
          enabled: true,
        },
      });
      // A rule applies to readings from a second after it is saved; the reading is the newest alert of the stack.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const firedAt = Math.floor(Date.now() / MIN) * MIN - MIN;
      await ingest(device, [{ timestamp: firedAt, values: { pm2_5: 77 } }]);

      const { name: deviceName } = await apiAs('devices', person.token).get({ params: { id: device.id } });

      const page = testPage();
      await signInAs(page, 'admin@example.com', '/admin/alerts');
      await page.waitForURL(web('/admin/alerts'));
      await page.getByRole('heading', { name: 'Alerts of every device' }).waitFor();
      // Not a device of the administrator's: staff's page shows every device's alerts.
      const firing = page.getByTestId('alerts-page-firing').getByRole('row').filter({ hasText: rule.name });
      await firing.waitFor({ timeout: POLL_WAIT_MS });
      // The device's name once the names have come (its id until then).
      await firing.getByRole('rowheader').getByText(deviceName, { exact: true }).waitFor();
      expect(await firing.getByRole('cell').allTextContents()).toEqual([
        rule.name,
        expect.stringMatching(/\S/),
        '77',
        expect.stringContaining('Acknowledge'),
      ]);
      expect(await firing.getByRole('link').getAttribute('href')).toBe(`/admin/devices/${device.id}?at=${firedAt}`);
      const recent = page.getByTestId('alerts-page-recent').getByRole('row').filter({ hasText: rule.name });
      await recent.getByText('Firing').waitFor({ timeout: POLL_WAIT_MS });
      await keepScreenshot(page, path.join(ARTIFACTS, `alerts-admin-${width()}.png`));

      // The device's link opens the staff's device page at that moment.
      await firing.getByRole('link').click();
      await page.waitForURL(web(`/admin/devices/${device.id}?at=${firedAt}`));
    },
    TEST_MS,
  );

  it(
    'what fires now is listed by when it fired, the last first, though an alert held for its time started earlier',
    async () => {
      const person = await freshPerson();
      const device = await freshDevice({ ownerToken: person.token });
      const alerts = alertsAs(person.token);
      const stamp = Date.now();
      // Held: PM2.5 over 35 for 10 minutes starts at the first reading and fires 10 minutes later.
      const held = await alerts.createRule({
        body: {
          name: `Held PM2.5 ${stamp}`,
          target: { kind: 'device', id: device.id },
          condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 600 },
          enabled: true,
        },
      });
      // At once: the temperature over 30 starts and fires at the same reading, between the other's start and fire.
      const atOnce = await alerts.createRule({
        body: {
          name: `Hot at once ${stamp}`,
          target: { kind: 'device', id: device.id },
          condition: { kind: 'threshold', measurement: 'temperature', above: 30, forSeconds: 0 },
          enabled: true,
        },
      });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const t = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
      await ingest(device, [
        { timestamp: t, values: { pm2_5: 77, temperature: 20 } },
        { timestamp: t + 5 * MIN, values: { pm2_5: 77, temperature: 40 } },
        { timestamp: t + 10 * MIN, values: { pm2_5: 77, temperature: 40 } },
      ]);
      // What the lists are read from: the held alert started first and fired last.
      const events = await eventually(async () => {
        const firing = await alerts.listEvents({ query: { deviceId: device.id, state: 'firing' } });
        return firing.items.length === 2 && firing;
      });
      const byRule = new Map(events.items.map((alert) => [alert.ruleId, alert]));
      expect(byRule.get(held.id)).toMatchObject({ startedAt: t, firedAt: t + 10 * MIN });
      expect(byRule.get(atOnce.id)).toMatchObject({ startedAt: t + 5 * MIN, firedAt: t + 5 * MIN });

      const page = testPage();
      await signInAs(page, 'admin@example.com', '/admin/alerts');
      await page.getByRole('heading', { name: 'Alerts of every device' }).waitFor();
      const table = page.getByTestId('alerts-page-firing');
      await table.getByRole('row').filter({ hasText: held.name }).waitFor({ timeout: POLL_WAIT_MS });
      await table.getByRole('row').filter({ hasText: atOnce.name }).waitFor({ timeout: POLL_WAIT_MS });
      const rows = await table.getByRole('row').allTextContents();
      const rowOf = (name: string) => rows.findIndex((row) => row.includes(name));
      expect(rowOf(held.name)).toBeLessThan(rowOf(atOnce.name));

      // The device page's panel lists its own the same way.
      await page.goto(web(`/admin/devices/${device.id}`));
      const panel = page.getByTestId('alerts-firing');
      await panel.getByText(atOnce.name).waitFor();
      expect(await panel.getByRole('listitem').allTextContents()).toEqual([
        expect.stringContaining(held.name),
        expect.stringContaining(atOnce.name),
      ]);
    },
    TEST_MS,
  );

  it(
    'more alerts firing than a page: "Firing now" shows the page that started last, and Load more the ones before it',
    async () => {
      const person = await freshPerson();
      const device = await freshDevice({ ownerToken: person.token });
      // A page and one more, firing as the sweep projects them, three days back (so no other test's list of every
      // device's alerts is filled with them), a minute apart, each fired 30 s after it started.
      const start = Math.floor(Date.now() / MIN) * MIN - 3 * 24 * 60 * MIN;
      const table = createAlertTable({ db: documentClient(), tableName: stack().tables.alerts! });
      const names = Array.from({ length: FIRING_PAGE + 1 }, (_, i) => `Fired ${String(i).padStart(3, '0')}`);
      const prefix = uniqueId('al-page');
      for (const [i, ruleName] of names.entries()) {
        const startedAt = start - i * MIN;
        await table.project({
          id: `${prefix}-${i}`,
          ruleId: `${prefix}-rule-${i}`,
          ruleName,
          deviceId: device.id,
          target: { kind: 'device', id: device.id },
          condition: 'threshold',
          state: 'firing',
          startedAt,
          firedAt: startedAt + 30_000,
          reminders: 0,
          updated: startedAt + 30_000,
          version: 1,
        });
      }

      const page = testPage();
      await signInPerson(page, person, '/dashboard/alerts');
      const rows = page.getByTestId('alerts-page-firing').locator('tbody tr');
      await rows.first().waitFor();
      const ruleNames = async () =>
        (await rows.allTextContents()).map((row) => names.find((name) => row.includes(name)) ?? row);
      // The page that started last, the last fired first; the one that started before them is not shown, and a person
      // is offered more instead of being shown a list cut short.
      expect(await ruleNames()).toEqual(names.slice(0, FIRING_PAGE));
      const more = page.getByTestId('alerts-page-firing-load-more');
      expect(await more.textContent()).toBe('Load more');
      await more.click();
      await rows.nth(FIRING_PAGE).waitFor();
      expect(await ruleNames()).toEqual(names);
      // The focus goes to what the page brought, and nothing more is offered.
      await page.waitForFunction(
        (id) => (document.activeElement as HTMLElement | null)?.dataset.listItem === id,
        `${prefix}-${FIRING_PAGE}`,
      );
      expect(await more.count()).toBe(0);
    },
    TEST_MS,
  );
});
