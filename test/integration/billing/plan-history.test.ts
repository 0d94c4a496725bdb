import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { buyTier, stripe, subscriptionRecord, until } from '../../support/billing';
import { freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection } from '../../support/stack';

const readOld = (token: string, deviceId: string, daysAgo: number) =>
  apiAs('sensor-data', token).listReadings({
    params: { id: deviceId },
    query: { from: Date.now() - daysAgo * DAY_MS, to: Date.now() - (daysAgo - 1) * DAY_MS },
  });

describe('billing: the subscriptions a device has had', () => {
  it('a second plan bought for a device outlives cancelling the first, and the device lists both, current first', async () => {
    const person = await freshUser({ prefix: 'bill-history' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const first = await buyTier(person, device.id, 'prod_sd1_tier1');
    const second = await buyTier(person, device.id, 'prod_sd1_tier2');
    expect(first).not.toBe(second);
    await expect(readOld(person.token, device.id, 200)).resolves.toBeDefined();

    // Cancelling the first at once sends its own webhook; the device keeps the plan that still grants a tier.
    await stripe().subscriptions.cancel(first);
    const history = () => apiAs('api', person.token).subscriptionsListByDevice({ body: { deviceId: device.id } });
    const listed = await until(
      history,
      ({ items }) => items.some((item) => item.id === first && item.status === 'canceled'),
      'the cancelled plan in the history',
    );
    expect(listed.items.map((item) => [item.id, item.status, item.tier])).toEqual([
      [second, 'active', 'tier2'],
      [first, 'canceled', 'tier1'],
    ]);
    expect(await subscriptionRecord(device.id)).toMatchObject({ id: second, tier: 'tier2', status: 'active' });
    await expect(readOld(person.token, device.id, 200)).resolves.toBeDefined();

    // Someone without access to the device reads none of it.
    const stranger = await freshUser({ prefix: 'bill-history-x' });
    const refused = await apiRejection(
      apiAs('api', stranger.token).subscriptionsListByDevice({ body: { deviceId: device.id } }),
    );
    expect(refused.status).toBe(403);
  });
});
