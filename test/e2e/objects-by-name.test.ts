import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { keepScreenshot, NARROW, pagePerTest, signInAs, WIDE, web } from '../support/browser';
import { seedRelation } from '../support/relations';
import { apiAs, subOf, tokenOf, uniqueId } from '../support/stack';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/** A device registered under a name of its own (no owner needed: staff and lists name it). */
const namedDevice = async () => {
  const name = uniqueId('Buoy');
  const serial = uniqueId('NM').replace(/-/g, '').toUpperCase().slice(0, 24);
  const { device } = await apiAs('devices', await tokenOf('admin@example.com')).register({
    body: { serial, productLine: 'sd1', model: 'SD1', firmwareVersion: '1.0.0', name },
  });
  return { id: device.id, name };
};

describe('end to end: objects by name', () => {
  it('lets an administrator create a relation by picking the device by name, and lists it by name', async () => {
    const device = await namedDevice();
    const member = await subOf('approved@example.com');
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin/relations');
    await page.waitForURL(web('/admin/relations'));

    await page.getByTestId('relations-create-type').selectOption('device-user');
    const picker = page.getByTestId('relations-create-referrer');
    await picker.locator('option', { hasText: device.name }).waitFor({ state: 'attached' });
    await picker.selectOption({ label: `${device.name} (${device.id})` });
    await page.getByTestId('relations-create-referent').fill('approved@');
    await page.getByTestId('relations-create-referent-option').filter({ hasText: 'April Approved' }).click();
    await page.getByTestId('relations-create-submit').click();

    await page.goto(web(`/admin/relations?referrer=${encodeURIComponent(device.id)}`));
    const row = page.getByTestId(`relations-row-device-user#${device.id}#${member}`);
    await row.getByRole('link', { name: device.name }).waitFor();
    expect(await row.locator('.object-id').first().textContent()).toBe(device.id);

    mkdirSync(ARTIFACTS, { recursive: true });
    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await keepScreenshot(page, path.join(ARTIFACTS, `relations-by-name-${viewport.width}.png`), { fullPage: true });
    }
  });

  it("shows an organization's and a campaign's devices by name to their members", async () => {
    const device = await namedDevice();
    const token = await tokenOf('user@example.com');
    const organization = await apiAs('organizations', token).create({ body: { name: uniqueId('Lake Society') } });
    const campaign = await apiAs('campaigns', token).create({
      body: { name: uniqueId('Spring survey'), startsAt: Date.UTC(2026, 2, 1, 12), endsAt: Date.UTC(2026, 4, 1, 12) },
    });
    // The member holds nothing on the device itself: its name comes with the lists that hold it.
    await seedRelation('organization-device', organization.id, device.id);
    await seedRelation('campaign-device', campaign.id, device.id);

    const page = testPage();
    await signInAs(page, 'user@example.com', `/dashboard/organizations/${organization.id}`);
    const orgDevices = page.getByTestId('members-devices');
    await orgDevices.getByRole('link', { name: device.name }).waitFor();

    await page.goto(web(`/dashboard/campaigns/${campaign.id}`));
    const campaignDevices = page.getByTestId('members-devices');
    await campaignDevices.getByRole('link', { name: device.name }).waitFor();
    expect(await campaignDevices.getByRole('row', { name: new RegExp(device.name) }).textContent()).toContain(
      device.id,
    );
  });
});
