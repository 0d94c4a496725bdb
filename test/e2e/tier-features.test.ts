import type { TierFeaturesSettings } from '../../shared/contracts/system';
import { TIER_FEATURES_PARAMETER, tierFeaturesValueOfLines } from '../../shared/sensor-data/tier-features';
import { NARROW, pagePerTest, signInAs, waitForHeaderUser, web } from '../support/browser';
import { freshDevice } from '../support/sensor-data';
import { apiAs, tokenOf } from '../support/stack';

const testPage = pagePerTest();

/**
 * The tier-features editor (/admin/tiers): an administrator changes what a tier gives, sees it saved, and the
 * device page's plans say the new value. The stack is shared: the table found at the start is put back.
 */
describe('end to end: an administrator edits the tier features', () => {
  let admin: ReturnType<typeof apiAs<'system'>>;
  let original: TierFeaturesSettings;

  beforeAll(async () => {
    admin = apiAs('system', await tokenOf('admin@example.com'));
    original = await admin.getTierFeatures({});
  });

  afterAll(async () => {
    if (original.stored) await admin.putTierFeatures({ body: tierFeaturesValueOfLines(original.productLines) });
    else await admin.deleteParameter({ params: { id: TIER_FEATURES_PARAMETER } }).catch(() => undefined);
  });

  it("changes SD1 Tier 2's API requests on /admin/tiers, is told why a bad value is refused, and the device page's plans show the new value", async () => {
    const device = await freshDevice({ productLine: 'sd1', owner: 'admin@example.com' });
    const page = testPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signInAs(page, 'admin@example.com', '/admin/tiers');
    await page.waitForURL(web('/admin/tiers'));
    await waitForHeaderUser(page, 'admin@example.com');
    const line = page.getByTestId('tier-line-sd1');
    await line.getByRole('heading', { name: 'SD1' }).waitFor();
    expect(await page.getByLabel('SD1 Tier 2 API requests a month').inputValue()).toBe('10000');

    // A higher tier giving less than a lower one: the API's reason, and nothing saved.
    await page.getByLabel('SD1 Tier 1 history days').fill('2');
    await page.getByTestId('tier-save-sd1').click();
    await page
      .getByTestId('tier-error')
      .getByText(
        "SD1 Tier 1: history days (2) is less than Tier 0's (7); a higher tier never gives less than a lower one",
      )
      .waitFor();
    expect((await admin.getTierFeatures({})).productLines[0]!.tiers[1]!.features.historicalDataAccessDays).toBe(30);

    await page.getByLabel('SD1 Tier 1 history days').fill('30');
    await page.getByLabel('SD1 Tier 2 API requests a month').fill('12345');
    await page.getByTestId('tier-save-sd1').click();
    await page.getByTestId('tier-saved').getByText('Saved — applies on the next read').waitFor();
    expect(await page.getByTestId('tier-error').count()).toBe(0);
    await page
      .getByTestId('tier-source')
      .getByText(/^Saved by an administrator on /)
      .waitFor();
    const stored = await admin.getTierFeatures({});
    expect(stored.stored).toBe(true);
    expect(stored.productLines[0]!.tiers[2]!.features.apiMaxRequests).toBe(12_345);

    // At phone width the table scrolls inside its own labelled region; the page itself never scrolls sideways.
    await page.setViewportSize(NARROW);
    await page.getByRole('region', { name: 'SD1 tier features' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The device page's pricing says what Tier 2 now unlocks.
    await page.goto(web(`/dashboard/devices/${device.id}`));
    const tier2 = page.getByTestId('plan-tier2');
    await tier2.getByText('12,345 API requests a month').waitFor();
    expect(await page.getByTestId('plan-tier1').textContent()).toContain('3,000 API requests a month');

    // Back to the defaults: the editor says so, and the device page shows the seed's value again.
    await page.goto(web('/admin/tiers'));
    await page.getByTestId('tier-reset').click();
    await page.getByTestId('tier-saved').getByText('Defaults restored — applies on the next read').waitFor();
    await page.getByTestId('tier-source').getByText('The defaults apply (nothing saved yet).').waitFor();
    expect(await page.getByLabel('SD1 Tier 2 API requests a month').inputValue()).toBe('10000');
    await page.goto(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plan-tier2').getByText('10,000 API requests a month').waitFor();
  });

  it('shows an Employee the table read-only', async () => {
    const page = testPage();
    await signInAs(page, 'employee@example.com', '/admin/tiers');
    await page.waitForURL(web('/admin/tiers'));
    await page.getByTestId('tier-read-only').waitFor();
    expect(await page.getByLabel('SD1 Tier 0 history days').isDisabled()).toBe(true);
    expect(await page.getByTestId('tier-save-all').count()).toBe(0);
  });
});
