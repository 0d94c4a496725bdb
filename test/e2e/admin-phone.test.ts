import { NARROW, onScreen, pagePerTest, web } from '../support/browser';
import { seedBanner } from '../support/notifications';
import { freshUser } from '../support/people';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

/** The demo's welcome banner, as long as a real one. */
const WELCOME =
  '<p>This is a banner: staff send them under <strong>Admin → Notifications</strong>, and the platform sends its own ' +
  'when roles, device owners or organizations change. All of yours are on the ' +
  '<a href="/dashboard/notifications">notifications page</a>, where you also choose which come by e-mail.</p>';

describe('end to end: admin pages on a phone', () => {
  it('at 375 px the admin links are one row with the current page in view, and a banner stays short', async () => {
    const admin = await freshUser({ groups: ['Administrators'], prefix: 'admin-phone' });
    await seedBanner(admin.id, 'Welcome to the demo', WELCOME);
    const page = testPage();
    await page.setViewportSize(NARROW);
    await signInPerson(page, admin, '/admin/people');
    await page.waitForURL(web('/admin/people'));
    const banner = page.getByTestId('banner-bar').getByRole('listitem').filter({ hasText: 'Welcome to the demo' });
    await banner.waitFor();
    // The banner: title and Dismiss on one row, its body two lines under them (about 150 px before).
    const bannerHeight = (await banner.boundingBox())!.height;
    expect({ bannerHeight, short: bannerHeight <= 110 }).toEqual({ bannerHeight, short: true });
    expect(await onScreen(banner.getByRole('button', { name: 'Dismiss "Welcome to the demo"' }))).toBe(true);

    const nav = page.getByTestId('admin-nav');

    for (const [path, name] of [
      ['/admin/people', 'People'],
      ['/admin/audit', 'Audit log'],
    ] as const) {
      if (path !== '/admin/people') {
        await nav.getByRole('link', { name, exact: true }).click();
        await page.waitForURL(web(path));
      }
      // One row of 44 px targets (four rows before: about 180 px), the page no wider than the phone.
      const height = (await nav.boundingBox())!.height;
      expect({ path, height, oneRow: height < 60 }).toEqual({ path, height, oneRow: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The current page's link is scrolled into the row, where a person sees it.
      // (The link turns current when the new page is drawn, which may be a moment after the address changes.)
      const current = nav.locator('a.active', { hasText: name });
      await current.waitFor();
      expect({ path, onScreen: await onScreen(current) }).toEqual({ path, onScreen: true });
    }
  });
});
