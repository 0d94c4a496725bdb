import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { pagePerTest, web } from '../support/browser';
import { nextMonthStart, wellInsidePeriod } from '../support/clock';
import { freshUser } from '../support/people';
import { freshDevice, setTier } from '../support/sensor-data';
import { areaUrl, documentClient, stack } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

const callWith = async (key: string, deviceId: string) =>
  (await fetch(`${areaUrl('sensor-data')}/v1/devices/${deviceId}/readings`, { headers: { 'x-api-key': key } })).status;

describe('end to end: the public API page', () => {
  it('makes a key shown once, shows its use with the 70 % warning, and revokes it', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'api-page' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await setTier(device.id, 'tier1');

    const page = testPage();
    await signInPerson(page, person, '/dashboard/api');
    await page.waitForURL(web('/dashboard/api'));
    await page.getByTestId('api-keys-empty').waitFor();
    await page.getByTestId('api-key-name').fill('e2e script');
    await page.getByTestId('api-key-create').click();
    const shown = page.getByTestId('api-key-new-value');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^ak_/);
    const keyId = key.slice(3, key.indexOf('.'));
    expect(await page.getByTestId(`api-key-row-${keyId}`).textContent()).toContain('e2e script');

    // The key works from outside the app; its month then shows on the page, here pushed past 70 %. The quota is per
    // UTC month: the calls, the seeded count and the page's read must fall in one month.
    await wellInsidePeriod(nextMonthStart, 60_000);
    expect(await callWith(key, device.id)).toBe(200);
    const month = new Date().toISOString().slice(0, 7);
    await documentClient().send(
      new UpdateCommand({
        TableName: stack().tables.apiUsage!,
        Key: { pk: `${device.id}#${month}` },
        UpdateExpression: 'SET #count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': 2_099 },
      }),
    );
    expect(await callWith(key, device.id)).toBe(200);
    await page.reload();
    const count = page.getByTestId(`api-usage-count-${device.id}`);
    await count.waitFor();
    expect(await count.textContent()).toBe('2100 / 3000 (70 %), 900 left');
    expect(await page.getByTestId(`api-usage-warnings-${device.id}`).textContent()).toContain(
      '70 % reached (2100 requests)',
    );
    // Other people's public devices count against the person's own allowance: their own device's tier's.
    expect(await page.getByTestId('api-usage-public').textContent()).toBe(
      "Other people's public devices count against your own allowance: 0 of 3000 requests used (the best tier with API access among your devices).",
    );
    expect(await page.getByTestId('api-howto-curl').textContent()).toContain(
      `${areaUrl('sensor-data')}/v1/devices/${device.id}/readings`,
    );

    // Shown once: after the reload the key's secret is nowhere on the page.
    expect(await page.content()).not.toContain(key);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId(`api-key-revoke-${keyId}`).click();
    await page.getByTestId('api-keys-empty').waitFor();
    expect(await callWith(key, device.id)).toBe(401);
  }, 150_000);
});
