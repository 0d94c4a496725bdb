import { headerLink, pagePerTest, signInAs, web } from '../support/browser';

const testPage = pagePerTest();

describe('end to end: the header Admin link and the admin navigation', () => {
  it('staff follow Admin from a dashboard page with no admin twin to the overview, from one with a twin to it; Migrations is in the admin links', async () => {
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/dashboard/cart');
    await page.waitForURL(web('/dashboard/cart'));
    await page.locator('h1').first().waitFor();
    // No /admin/cart: the admin overview, not "Page not found".
    await headerLink(page, 'Admin');
    await page.waitForURL(web('/admin'));
    await page.getByTestId('admin-nav').waitFor();
    expect(await page.locator('h1').first().textContent()).not.toMatch(/not found/i);

    // A dashboard page with an admin twin still leads to it (spec §2).
    await page.goto(web('/dashboard/devices/demo-device-1'));
    await page.getByTestId('device-title').waitFor();
    await headerLink(page, 'Admin');
    await page.waitForURL(web('/admin/devices/demo-device-1'));

    // Every admin page is in the admin navigation: Migrations too.
    await page.getByTestId('admin-nav').getByRole('link', { name: 'Migrations', exact: true }).click();
    await page.waitForURL(web('/admin/migrations'));
    await page.getByRole('heading', { level: 1 }).waitFor();
  });
});
