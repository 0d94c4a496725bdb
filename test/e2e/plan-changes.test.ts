import { buyTier, subscriptionRecord, until } from '../support/billing';
import { pagePerTest, signInAs, web } from '../support/browser';
import { freshUser } from '../support/people';
import { freshDevice } from '../support/sensor-data';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

describe('end to end: changing a device plan', () => {
  it('a person with Tier 1 upgrades to Tier 2, sees the prorated invoice on their profile, schedules a downgrade and undoes it', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'plan-change' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await buyTier(person, device.id, 'prod_sd1_tier1');

    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plans-tier').getByText('Tier 1').waitFor();
    const when = page.getByTestId('plan-change-when');
    await when.getByText(/^Renews on \d{1,2} \w{3} \d{4}$/).waitFor();
    const renewal = ((await when.textContent()) ?? '').replace('Renews on ', '');

    // On a plan of its own, a higher tier is an upgrade of that plan, not a second purchase: no Buy, no cart,
    // and the chart's locked band points to the upgrade.
    expect(await page.getByTestId('plan-upgrade-hint-tier2').textContent()).toContain('prorated difference');
    expect(await page.getByTestId('plan-buy-tier2').count()).toBe(0);
    expect(await page.getByTestId('plan-cart-tier2').count()).toBe(0);
    await page.getByTestId('sensor-range-1y').click();
    const bandOffer = page.getByTestId('sensor-lock-upgrade');
    await bandOffer.getByText('Upgrade to Tier 2 under Plans').waitFor();
    expect(await page.getByTestId('sensor-lock-add').count()).toBe(0);

    // The upgrade says it charges the prorated difference now, then applies at once.
    const upgrade = page.getByTestId('plan-change-upgrade-tier2');
    expect(await upgrade.textContent()).toBe('Upgrade to Tier 2');
    expect(await page.getByTestId('plan-change').textContent()).toContain(
      'the prorated difference for the rest of this period is charged at once',
    );
    await upgrade.click();
    await page.getByTestId('plans-tier').getByText('Tier 2').waitFor();
    await when.getByText(`Renews on ${renewal}`).waitFor();
    expect(await page.getByTestId('plan-change-upgrade-tier2').count()).toBe(0);
    await until(
      () => subscriptionRecord(device.id),
      (record) => record?.tier === 'tier2',
      'the record of the upgrade',
    );

    // The profile's invoices: the proration (nearly the whole $10.00 difference) above the first month's $9.00.
    await page.goto(web(`/dashboard/people/${person.id}`));
    const rows = page.getByTestId('invoices-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/\$9\.9\d|\$10\.00/);
    expect(await rows.nth(0).textContent()).toContain('Paid');
    expect(await rows.nth(1).textContent()).toContain('$9.00');
    const link = rows.nth(0).getByRole('link', { name: 'View invoice' });
    expect(await link.getAttribute('href')).toMatch(/\/invoices\/in_/);

    // A downgrade waits for the period end, and says so; "Keep Tier 2" undoes it.
    await page.goto(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plans-tier').getByText('Tier 2').waitFor();
    const downgrade = page.getByTestId('plan-change-downgrade-tier1');
    expect(await downgrade.textContent()).toBe(`Switch to Tier 1 from ${renewal}`);
    await downgrade.click();
    await when.getByText(`Tier 2 until ${renewal}, then Tier 1`).waitFor();
    expect(await page.getByTestId('plans-tier').textContent()).toBe('Tier 2');
    const keep = page.getByTestId('plan-change-keep');
    expect(await keep.textContent()).toBe('Keep Tier 2');
    await keep.click();
    await when.getByText(`Renews on ${renewal}`).waitFor();
    expect(await page.getByTestId('plan-change-keep').count()).toBe(0);
  });

  it("staff read a person's subscriptions and invoices on the admin person page", async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'plan-admin' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await buyTier(person, device.id, 'prod_sd1_tier2');

    const page = testPage();
    await signInAs(page, 'admin@example.com', `/admin/people/${person.id}`);
    const billing = page.getByTestId('person-billing');
    const subscription = billing.getByTestId('person-subscription-row');
    await subscription.waitFor();
    const text = (await subscription.textContent()) ?? '';
    expect(text).toContain('SD1 Tier 2');
    expect(text).toContain('Active');
    expect(text).toContain(device.id);
    expect(text).toContain('Tier 2');
    const invoice = billing.getByTestId('person-invoices-row');
    await invoice.waitFor();
    expect(await invoice.textContent()).toContain('$19.00');
    expect(await invoice.textContent()).toContain('Paid');
  });
});
