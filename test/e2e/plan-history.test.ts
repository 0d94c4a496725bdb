import { buyTier, stripe, until } from '../support/billing';
import { pagePerTest, web } from '../support/browser';
import { freshUser } from '../support/people';
import { freshDevice } from '../support/sensor-data';
import { apiAs } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

describe('end to end: a device’s plan history', () => {
  it('the device page shows the plan that gives its tier now, and the cancelled one under Plan history', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'plan-history' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const first = await buyTier(person, device.id, 'prod_sd1_tier1');
    const second = await buyTier(person, device.id, 'prod_sd1_tier2');
    await stripe().subscriptions.cancel(first);
    await until(
      () => apiAs('api', person.token).subscriptionsListByDevice({ body: { deviceId: device.id } }),
      ({ items }) => items.some((item) => item.id === first && item.status === 'canceled'),
      'the cancelled plan',
    );

    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plans-tier').getByText('Tier 2').waitFor();
    expect(await page.getByTestId('plans-subscription').textContent()).toContain('SD1 Tier 2');

    const history = page.getByTestId('plans-history');
    await history.getByText('Plan history (1)').click();
    const past = page.getByTestId(`plans-history-${first}`);
    await past.waitFor();
    const text = (await past.textContent()) ?? '';
    expect(text).toContain('Canceled');
    expect(text).toContain('SD1 Tier 1');
    expect(text).toMatch(/\$\d+\.\d\d per month/);
    expect(await page.getByTestId(`plans-history-${second}`).count()).toBe(0);
  });
});
