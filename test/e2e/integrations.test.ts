import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { keepScreenshot, pagePerTest, signInAs, web } from '../support/browser';
import { freshDevice } from '../support/sensor-data';
import { apiAs } from '../support/stack';
import { receiverPerTest, verifiedWith } from '../support/webhooks';

/**
 * The Integrations panel (docs/integrations.md, "Screens"): a device's owner adds a webhook in Chromium, sees its
 * signing secret once, sends a test and reads it in the delivery log, green and "Delivered", and the receiver on
 * 127.0.0.1 verifies the test with the secret the page showed. At both widths (E2E_WIDTH=375 for the phone's).
 */

const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const testPage = pagePerTest();

const receiver = receiverPerTest();

describe('end to end: webhooks', () => {
  it('adds a webhook, shows its secret once, and shows the test delivery in the log', async () => {
    const page = testPage();
    const device = await freshDevice();
    await signInAs(page, 'user@example.com', `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));

    const panel = page.getByTestId('integrations');
    await panel.getByTestId('integrations-empty').waitFor();
    await panel.getByTestId('webhook-add-open').click();
    // The form checks before it sends: no address, and no event, each named.
    await page.getByTestId('webhook-add-event-readings.received').uncheck();
    await page.getByTestId('webhook-add-submit').click();
    await page.getByTestId('webhook-add-url-error').waitFor();
    expect(await page.getByTestId('webhook-add-events-error').textContent()).toBe('Choose at least one event');

    await page.getByTestId('webhook-add-url').fill(receiver().url);
    await page.getByTestId('webhook-add-event-readings.received').check();
    await page.getByTestId('webhook-add-event-export.ready').check();
    await page.getByTestId('webhook-add-submit').click();

    const secret = page.getByTestId('webhook-secret-value');
    await secret.waitFor();
    const shown = (await secret.textContent())!;
    expect(shown).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(await page.getByTestId('webhook-secret').textContent()).toContain('it will not be shown again');
    await page.getByTestId('webhook-secret-copy').click();
    await page
      .getByTestId('webhook-secret-copy-outcome')
      .getByText(/Copied|copy it by hand/)
      .waitFor();

    const [webhook] = (
      await apiAs('integrations', device.ownerToken).listWebhooks({
        query: { targetKind: 'device', targetId: device.id },
      })
    ).items;
    const card = page.getByTestId(`webhook-${webhook!.id}`);
    expect(await card.getByTestId(`webhook-url-${webhook!.id}`).textContent()).toBe(receiver().url);
    expect(await card.getByTestId(`webhook-events-${webhook!.id}`).textContent()).toBe(
      'Sends: Readings received, Export ready',
    );
    expect(await card.getByTestId(`webhook-state-${webhook!.id}`).textContent()).toBe('On');

    await card.getByTestId(`webhook-test-${webhook!.id}`).click();
    const log = card.getByTestId(`delivery-log-table-${webhook!.id}`);
    const status = log.locator('[data-status="delivered"]').first();
    await status.waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toBe('Delivered');
    // Green, from the design tokens: the word and its colour.
    expect(await status.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(15, 83, 35)');
    const row = status.locator('xpath=ancestor::tr');
    expect(await row.textContent()).toContain('Test');
    expect(await row.textContent()).toContain('HTTP 204');

    // The receiver verified the test with the secret the page showed.
    const [ping] = receiver().of('ping');
    expect(verifiedWith(shown, ping!)).toMatchObject({
      type: 'ping',
    });
    mkdirSync(ARTIFACTS, { recursive: true });
    await keepScreenshot(card, path.join(ARTIFACTS, `webhook-card-${page.viewportSize()!.width}.png`));

    // Shown once: a reload brings the webhook back without its secret.
    await page.reload();
    await card.waitFor();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(shown);
  });
});
