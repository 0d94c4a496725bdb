import { relationId } from '../../shared/relations/relation-types';
import { headerLink, pagePerTest, signInAs } from '../support/browser';
import { freshDevice } from '../support/sensor-data';
import { subOf } from '../support/stack';

const testPage = pagePerTest();

describe('end to end: one query cache for server state', () => {
  it('a transfer made in the Ownership panel shows in the facts and the Members panel of the same device, with no reload', async () => {
    const device = await freshDevice({ owner: 'user@example.com' });
    const [from, to] = [await subOf('user@example.com'), await subOf('approved@example.com')];
    const page = testPage();
    // Staff, who still see the device after it changes hands (its old owner no longer does).
    await signInAs(page, 'admin@example.com', `/admin/devices/${device.id}`);
    await page.getByTestId('device-owner').getByText('Uma User').waitFor();
    await page.getByTestId(`members-row-${relationId('device-owner', device.id, from)}`).waitFor();
    // Survives only while the document does: a reload or a full navigation would drop it.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    page.once('dialog', (dialog) => void dialog.accept());
    // Staff pick the new owner from the directory by the start of their e-mail.
    await page.getByTestId('transfer-owner').fill('approved@');
    await page.getByTestId('transfer-owner-option').filter({ hasText: 'April Approved' }).click();
    await page.getByTestId('transfer-submit').click();

    await page.getByTestId('device-owner').getByText('April Approved').waitFor();
    await page.getByTestId(`members-row-${relationId('device-owner', device.id, to)}`).waitFor();
    await page.getByTestId(`members-row-${relationId('device-owner', device.id, from)}`).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('going back to a page shows the answer already read, without asking the API again', async () => {
    const device = await freshDevice({ owner: 'user@example.com' });
    const page = testPage();
    await signInAs(page, 'user@example.com', `/dashboard/devices/${device.id}`);
    await page.getByTestId('device-serial').waitFor();
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname.endsWith(`/devices/${device.id}`)) {
        reads.push(request.url());
      }
    });

    await headerLink(page, 'Dashboard');
    // The dashboard's own content (the demo user's device list is long and paged: the new device may be on a later page).
    await page.getByTestId('dashboard-email').waitFor();
    await page.goBack();
    // Drawn from the cache at once: the serial shows with no new read of the device.
    await page.getByTestId('device-serial').waitFor({ timeout: 2_000 });
    expect(reads).toEqual([]);
  });
});
